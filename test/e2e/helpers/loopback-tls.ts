import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// An HTTPS origin on this machine that the Workers under test trust: a certificate for
// localhost made for the run (openssl, as Debian and macOS ship it), which the e2e workers'
// runtimes trust through NODE_EXTRA_CA_CERTS (miniflare reads it when it loads). A Client ID
// Metadata Document must be served over HTTPS (test/e2e/local/oauth.test.ts).

export type LoopbackTls = { certPath: string; keyPath: string };

/** Makes the certificate, and has the processes started from now on trust it beside what they trusted. */
export const trustLoopbackCertificate = (): LoopbackTls => {
  const dir = mkdtempSync(path.join(tmpdir(), "petstore-tls-"));
  const certPath = path.join(dir, "cert.pem");
  const keyPath = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2"],
      ...["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
      ...["-addext", "basicConstraints=critical,CA:TRUE", "-keyout", keyPath, "-out", certPath],
    ],
    { stdio: "pipe" },
  );
  const already = process.env.NODE_EXTRA_CA_CERTS;
  const bundle = path.join(dir, "trusted.pem");
  const before = already && existsSync(already) ? `${readFileSync(already, "utf8")}\n` : "";
  writeFileSync(bundle, before + readFileSync(certPath, "utf8"));
  process.env.NODE_EXTRA_CA_CERTS = bundle;
  return { certPath, keyPath };
};
