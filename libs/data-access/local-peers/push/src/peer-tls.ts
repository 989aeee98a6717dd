import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/** The TLS identity of the local push peers: a throwaway CA and a `localhost`/`127.0.0.1` leaf it signed. */
export interface PeerTls {
  /** PEM of the CA: what a client adds to its trust store to reach the peers. */
  readonly ca: string;
  /** PEM (PKCS#8) of the leaf's private key. */
  readonly key: string;
  /** PEM of the leaf certificate. */
  readonly cert: string;
}

let made: PeerTls | undefined;

/**
 * The peers' CA and leaf certificate, made once per process: every peer serves the same leaf, so a
 * client that trusts one peer trusts them all. The push SDKs verify TLS as against the real
 * providers; only the trust anchor differs.
 */
export function makePeerTls(): PeerTls {
  made ??= issue();
  return made;
}

function issue(): PeerTls {
  const now = Date.now();
  const validity = { from: new Date(now - 3_600_000), to: new Date(now + 365 * 86_400_000) };
  const caKeys = rsaKeyPair();
  const caName = [{ name: 'commonName', value: 'Notify local push peers CA' }];
  const ca = certificate(caKeys.publicKey, caName, caName, validity, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());

  const leafKeys = rsaKeyPair();
  const leafName = [{ name: 'commonName', value: 'localhost' }];
  const leaf = certificate(leafKeys.publicKey, leafName, caName, validity, [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
  ]);
  leaf.sign(caKeys.privateKey, forge.md.sha256.create());

  return {
    ca: forge.pki.certificateToPem(ca),
    key: leafKeys.privateKeyPem,
    cert: forge.pki.certificateToPem(leaf),
  };
}

/** An RSA key pair made natively (forge's own keygen takes seconds), in the forms forge signs with. */
function rsaKeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKey: forge.pki.publicKeyFromPem(pem(publicKey, 'spki')),
    privateKey: forge.pki.privateKeyFromPem(pem(privateKey, 'pkcs1')),
    privateKeyPem: pem(privateKey, 'pkcs8'),
  };
}

function pem(key: KeyObject, type: 'spki' | 'pkcs1' | 'pkcs8'): string {
  return key.export({ type, format: 'pem' }).toString();
}

function certificate(
  publicKey: forge.pki.PublicKey,
  subject: forge.pki.CertificateField[],
  issuer: forge.pki.CertificateField[],
  validity: { from: Date; to: Date },
  extensions: object[],
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial (the high bit clear), random so that no two runs' certificates collide.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = validity.from;
  cert.validity.notAfter = validity.to;
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  cert.setExtensions(extensions);
  return cert;
}
