// check.mjs FILE.warc.gz: reads every record of a WARC file with
// Webrecorder's warcio (twice: as raw blocks, then with the HTTP messages
// parsed) and checks each WARC-Block-Digest and WARC-Payload-Digest
// against the bytes warcio read. Prints a JSON summary; exits 1 on any
// mismatch or parse error.
import fs from "node:fs";
import crypto from "node:crypto";
import { WARCParser } from "warcio";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32(buf) {
  let bits = 0, value = 0, out = "";
  for (const b of buf) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  while (out.length % 8) out += "=";
  return out;
}

// matches checks a labelled digest ("sha256:…", base32 or hex) of data.
function matches(label, data) {
  const [algo, value] = label.split(":");
  const name = { sha1: "sha1", sha256: "sha256", "sha-256": "sha256", "sha-1": "sha1" }[algo.toLowerCase()];
  if (!name) return false;
  const sum = crypto.createHash(name).update(data).digest();
  return value === base32(sum) || value.toLowerCase() === sum.toString("hex");
}

async function records(path, parseHttp) {
  const out = [];
  const parser = new WARCParser(fs.createReadStream(path), { parseHttp });
  for await (const record of parser) {
    const data = Buffer.from(await record.readFully(false));
    out.push({ record, data });
  }
  return out;
}

const path = process.argv[2];
const summary = { records: 0, types: {}, blockDigests: 0, payloadDigests: 0, responses: [], requests: [], errors: [] };
try {
  const raw = await records(path, false);
  const parsed = await records(path, true);
  if (raw.length !== parsed.length) summary.errors.push(`${raw.length} raw records, ${parsed.length} parsed`);
  summary.records = raw.length;
  raw.forEach(({ record, data }, i) => {
    const type = record.warcType;
    summary.types[type] = (summary.types[type] || 0) + 1;
    const bd = record.warcBlockDigest;
    if (bd) {
      summary.blockDigests++;
      if (!matches(bd, data)) summary.errors.push(`record ${i + 1} (${type} ${record.warcTargetURI}): block digest mismatch`);
    }
    if (Number(record.warcContentLength) !== data.length) summary.errors.push(`record ${i + 1}: Content-Length ${record.warcContentLength}, read ${data.length}`);
    const p = parsed[i];
    const pd = p.record.warcPayloadDigest;
    if (pd && (type === "response" || type === "resource")) {
      summary.payloadDigests++;
      if (!matches(pd, p.data)) summary.errors.push(`record ${i + 1} (${type} ${record.warcTargetURI}): payload digest mismatch`);
    }
    if (type === "request") {
      summary.requests.push({ url: record.warcTargetURI, method: p.record.httpHeaders ? p.record.httpHeaders.method : "" });
    }
    if (type === "response" || type === "revisit") {
      summary.responses.push({
        type, url: record.warcTargetURI, status: p.record.httpHeaders ? p.record.httpHeaders.statusCode : 0,
        ip: record.warcHeaders.headers.get("WARC-IP-Address") || "",
        sha256: crypto.createHash("sha256").update(p.data).digest("hex"), bytes: p.data.length,
        payloadDigest: record.warcPayloadDigest || "",
      });
    }
  });
} catch (e) {
  summary.errors.push(String(e && e.stack || e));
}
console.log(JSON.stringify(summary));
process.exit(summary.errors.length ? 1 : 0);
