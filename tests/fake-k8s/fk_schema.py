"""Structural-schema validation of custom resources, as the apiserver does it.

Covers the openAPIV3Schema subset the JobSet and MPIJob CRDs use: type,
properties, required, items, enum, additionalProperties, anyOf (only as the
int-or-string pair), x-kubernetes-int-or-string, x-kubernetes-preserve-unknown-fields,
x-kubernetes-list-type map/set uniqueness, format int32/int64, minimum/maximum,
min/maxItems, min/maxLength and pattern.  Unknown fields are pruned (or
reported under fieldValidation=Strict), nulls are dropped and `default`s are
applied.  CEL rules are not interpreted; the create-time ones are restated in
fk_rules.py.
"""

import re

import fk_util
import fk_yaml

_PYTYPES = {"object": dict, "array": list, "string": str, "boolean": bool}
_GOTYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer",
            float: "number"}
_INT_RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1)}
_pattern_cache = {}


class Crd:
    """One served version of a CRD."""

    def __init__(self, doc):
        spec = doc["spec"]
        self.group = spec["group"]
        self.kind = spec["names"]["kind"]
        self.list_kind = spec["names"].get("listKind", self.kind + "List")
        self.plural = spec["names"]["plural"]
        self.namespaced = spec.get("scope", "Namespaced") == "Namespaced"
        served = [v for v in spec["versions"] if v.get("served")]
        self.version = served[0]["name"]
        self.schema = served[0]["schema"]["openAPIV3Schema"]
        self.has_status = "status" in (served[0].get("subresources") or {})


def load_crd(path):
    with open(path, encoding="utf-8") as f:
        return Crd(fk_yaml.load(f.read()))


def _gotype(value):
    return _GOTYPES.get(type(value), "object")


def _type_ok(value, typ):
    if typ == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or \
            (isinstance(value, float) and value.is_integer())
    if typ == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _PYTYPES.get(typ, object))


class _Walker:
    def __init__(self, strict):
        self.strict = strict
        self.causes = []
        self.unknown = []

    def err(self, reason, path, msg):
        self.causes.append(fk_util.cause(reason, path, msg))

    def invalid(self, path, value, msg):
        self.err("FieldValueInvalid", path,
                 "Invalid value: %s: %s in body %s" % (fk_util.jstr(value), path, msg))

    def walk(self, value, schema, path):
        """Validate `value`; return the (possibly pruned/defaulted) value."""
        if schema.get("x-kubernetes-int-or-string"):
            if not (_type_ok(value, "integer") or isinstance(value, str)):
                self.invalid(path, _gotype(value), "must be of type int-or-string")
                return value
        elif "type" in schema and not _type_ok(value, schema["type"]):
            self.invalid(path, _gotype(value), "must be of type %s: %s"
                         % (schema["type"], fk_util.jstr(_gotype(value))))
            return value
        if isinstance(value, dict):
            return self.walk_object(value, schema, path)
        if isinstance(value, list):
            return self.walk_array(value, schema, path)
        self.check_scalar(value, schema, path)
        return value

    def check_scalar(self, value, schema, path):
        if "enum" in schema and value not in schema["enum"]:
            allowed = ", ".join(fk_util.jstr(v) for v in schema["enum"])
            self.err("FieldValueNotSupported", path, "Unsupported value: %s: supported values: %s"
                     % (fk_util.jstr(value), allowed))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            lo, hi = _INT_RANGE.get(schema.get("format"), (None, None))
            if lo is not None and not lo <= value <= hi:
                self.invalid(path, value, "must be of type %s" % schema["format"])
            if "minimum" in schema and value < schema["minimum"]:
                self.invalid(path, value, "should be greater than or equal to %s" % schema["minimum"])
            if "maximum" in schema and value > schema["maximum"]:
                self.invalid(path, value, "should be less than or equal to %s" % schema["maximum"])
        if isinstance(value, str):
            if "maxLength" in schema and len(value) > schema["maxLength"]:
                self.err("FieldValueTooLong", path, "Too long: may not be more than %d bytes"
                         % schema["maxLength"])
            if "minLength" in schema and len(value) < schema["minLength"]:
                self.invalid(path, value, "should be at least %d chars long" % schema["minLength"])
            pat = schema.get("pattern")
            if pat is not None:
                rx = _pattern_cache.get(pat) or _pattern_cache.setdefault(pat, re.compile(pat))
                if not rx.search(value):
                    self.invalid(path, value, "should match '%s'" % pat)

    def walk_object(self, value, schema, path):
        props = schema.get("properties")
        addl = schema.get("additionalProperties")
        keep = schema.get("x-kubernetes-preserve-unknown-fields")
        out = {}
        for key, item in value.items():
            sub = "%s.%s" % (path, key) if path else key
            sch = props.get(key) if props else None
            if item is None and not (sch or {}).get("nullable"):
                continue  # the apiserver drops nulls of non-nullable fields
            if sch is not None:
                out[key] = self.walk(item, sch, sub)
            elif isinstance(addl, dict):
                out[key] = self.walk(item, addl, sub)
            elif addl is True or keep:
                out[key] = item
            else:
                self.unknown.append(sub)
                if not self.strict:
                    continue
                out[key] = item
        for key in schema.get("required", []):
            if key not in out:
                sub = "%s.%s" % (path, key) if path else key
                self.err("FieldValueRequired", sub, "Required value")
        for key, sch in (props or {}).items():
            if key not in out and "default" in sch:
                out[key] = _deepcopy(sch["default"])
        return out

    def walk_array(self, value, schema, path):
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            self.err("FieldValueTooMany", path, "Too many: %d: must have at most %d items"
                     % (len(value), schema["maxItems"]))
        if "minItems" in schema and len(value) < schema["minItems"]:
            self.invalid(path, len(value), "should have at least %d items" % schema["minItems"])
        items = schema.get("items") or {}
        out = [self.walk(v, items, "%s[%d]" % (path, i)) for i, v in enumerate(value)]
        self.check_list_type(out, schema, path)
        return out

    def check_list_type(self, value, schema, path):
        kind = schema.get("x-kubernetes-list-type")
        if kind not in ("map", "set"):
            return
        keys = schema.get("x-kubernetes-list-map-keys", [])
        seen = set()
        for i, item in enumerate(value):
            if kind == "map" and isinstance(item, dict):
                ident = tuple(repr(item.get(k)) for k in keys)
            else:
                ident = repr(item)
            if ident in seen:
                shown = ", ".join('"%s":%s' % (k, fk_util.jstr(item.get(k))) for k in keys) \
                    if kind == "map" and isinstance(item, dict) else fk_util.jstr(item)
                self.err("FieldValueDuplicate", "%s[%d]" % (path, i), "Duplicate value: %s"
                         % ("map[string]interface {}{%s}" % shown if kind == "map" else shown))
            seen.add(ident)


def _deepcopy(value):
    if isinstance(value, dict):
        return {k: _deepcopy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deepcopy(v) for v in value]
    return value


def validate(obj, crd, strict=False):
    """Validate a custom resource body against its CRD.

    Returns (pruned_object, causes, unknown_field_paths).  apiVersion, kind and
    metadata are checked by the caller (fk_rules.check_meta), as the apiserver
    handles ObjectMeta itself rather than through the schema.
    """
    walker = _Walker(strict)
    body = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind", "metadata")}
    schema = dict(crd.schema)
    schema["properties"] = {k: v for k, v in schema.get("properties", {}).items()
                            if k not in ("apiVersion", "kind", "metadata")}
    walked = walker.walk_object(body, schema, "")
    out = {"apiVersion": obj.get("apiVersion"), "kind": obj.get("kind"),
           "metadata": obj.get("metadata") or {}}
    out.update(walked)
    return out, walker.causes, walker.unknown
