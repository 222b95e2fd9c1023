"""Shared helpers: timestamps, Status objects, Kubernetes name rules."""

import random
import re
import string
import time

DNS1123_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
DNS1035_LABEL = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
QUALIFIED_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")

# Kubernetes' own error texts (apimachinery/pkg/util/validation), so that
# clients surfacing Status messages see what a real cluster would say.
_MSG_1123_SUB = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                 "characters, '-' or '.', and must start and end with an alphanumeric character "
                 "(e.g. 'example.com', regex used for validation is "
                 "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
_MSG_1123_LABEL = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                   "or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  "
                   "or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
_MSG_1035 = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
             "with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',"
             "  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')")
_MSG_LABEL_VALUE = ("a valid label must be an empty string or consist of alphanumeric characters, "
                    "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
                    "'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")
_MSG_QNAME = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start "
              "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
              "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")


def now_rfc3339():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def rand_suffix(n=5):
    # Same alphabet as apimachinery's rand.String (no vowels, no confusables).
    return "".join(random.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(n))


def rand_uid():
    h = "".join(random.choice(string.hexdigits.lower()[:16]) for _ in range(32))
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def status(code, reason, message, details=None, retry_after=None):
    obj = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
           "message": message, "reason": reason, "code": code}
    if details is not None or retry_after is not None:
        obj["details"] = dict(details or {})
        if retry_after is not None:
            obj["details"]["retryAfterSeconds"] = retry_after
    return obj


def cause(reason, field, message):
    return {"reason": reason, "field": field, "message": message}


def invalid_status(qual_kind, name, group, kind, causes, prefix=""):
    """A 422 Invalid Status, formatted like apierrors.NewInvalid."""
    texts = ["%s: %s" % (c["field"], c["message"]) if c["field"] else c["message"] for c in causes]
    agg = texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"
    msg = '%s%s "%s" is invalid: %s' % (prefix, qual_kind, name, agg)
    return status(422, "Invalid", msg, {"name": name, "group": group, "kind": kind, "causes": causes})


def _name_errs(value, regex, text, maxlen):
    errs = []
    if len(value) > maxlen:
        errs.append("must be no more than %d characters" % maxlen)
    if not regex.match(value):
        errs.append(text)
    return errs


def dns1123_subdomain_errs(value):
    return _name_errs(value, DNS1123_SUBDOMAIN, _MSG_1123_SUB, 253)


def dns1123_label_errs(value):
    return _name_errs(value, DNS1123_LABEL, _MSG_1123_LABEL, 63)


def dns1035_label_errs(value):
    return _name_errs(value, DNS1035_LABEL, _MSG_1035, 63)


def qualified_name_errs(key):
    errs = []
    prefix, _, name = key.rpartition("/")
    if "/" in key and not prefix:
        errs.append("prefix part must be non-empty")
    elif prefix:
        errs += ["prefix part " + e for e in dns1123_subdomain_errs(prefix)]
    if not name:
        errs.append("name part must be non-empty")
    else:
        if len(name) > 63:
            errs.append("name part must be no more than 63 characters")
        if not QUALIFIED_NAME.match(name):
            errs.append(_MSG_QNAME)
    return errs


def label_value_errs(value):
    errs = []
    if len(value) > 63:
        errs.append("must be no more than 63 characters")
    if not LABEL_VALUE.match(value):
        errs.append(_MSG_LABEL_VALUE)
    return errs


def jstr(value):
    """Go's %q-ish rendering of a value inside an error message."""
    if isinstance(value, str):
        return '"%s"' % value.replace("\\", "\\\\").replace('"', '\\"')
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if value is None:
        return "null"
    return '"%s"' % ("object" if isinstance(value, dict) else "array")
