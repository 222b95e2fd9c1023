// validate-crd.js - validate rendered objects against the upstream CRDs'
// openAPIV3Schema with ajv, as the API server's structural-schema check
// would, plus one thing it does not do by default: unknown fields are
// errors here (the server would silently prune them, hiding a typo).
// CEL rules (x-kubernetes-validations) and formats are not checked.
//
// usage: node validate-crd.js CRD_DIR FILE.json...
// exit 0 when every file validates, 1 otherwise (errors on stderr).
'use strict';
const fs = require('fs');
const path = require('path');
const YAML = require('yaml');
const Ajv = require('ajv');

function strict(schema) {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k.startsWith('x-kubernetes-') || k === 'description') continue;
    out[k] = (k === 'properties' || k === 'patternProperties')
      ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, strict(s)]))
      : strict(v);
  }
  if (schema['x-kubernetes-int-or-string']) {
    delete out.type;
    if (!out.anyOf) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined &&
      !schema['x-kubernetes-preserve-unknown-fields']) {
    out.additionalProperties = false;
  }
  if (schema.nullable) {
    delete out.nullable;
    if (out.type) out.type = [out.type, 'null'];
  }
  return out;
}

function loadCrds(dir) {
  const byKind = {};
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8'))) {
      const crd = doc.toJS();
      if (!crd || crd.kind !== 'CustomResourceDefinition') continue;
      for (const v of crd.spec.versions) {
        const key = `${crd.spec.group}/${v.name} ${crd.spec.names.kind}`;
        byKind[key] = strict(v.schema.openAPIV3Schema);
      }
    }
  }
  return byKind;
}

function main(argv) {
  if (argv.length < 2) {
    process.stderr.write('usage: node validate-crd.js CRD_DIR FILE.json...\n');
    return 2;
  }
  const schemas = loadCrds(argv[0]);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  let bad = 0;
  for (const file of argv.slice(1)) {
    const obj = JSON.parse(fs.readFileSync(file, 'utf8'));
    const key = `${obj.apiVersion} ${obj.kind}`;
    const schema = schemas[key];
    if (!schema) {
      process.stderr.write(`${file}: no CRD for ${key}\n`);
      bad++;
      continue;
    }
    const validate = ajv.compile(schema);
    if (validate(obj)) {
      process.stdout.write(`ok ${path.basename(file)} (${key})\n`);
    } else {
      bad++;
      for (const e of validate.errors) {
        const extra = e.params && e.params.additionalProperty
          ? ` '${e.params.additionalProperty}'` : '';
        process.stderr.write(`${file}: ${e.instancePath || '/'} ${e.message}${extra}\n`);
      }
    }
  }
  return bad ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
