import { randomUUID } from "node:crypto";
import forge from "node-forge";
import { SignedXml } from "xml-crypto";

/** A key pair and a self-signed certificate, as an identity provider signs its SAML responses with. */
export interface SigningIdentity {
  privateKeyPem: string;
  certificatePem: string;
}

export function makeSigningIdentity(commonName = "Test IdP"): SigningIdentity {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = keys.publicKey;
  certificate.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(8))}`;
  certificate.validity.notBefore = new Date(Date.now() - 24 * 60 * 60 * 1000);
  certificate.validity.notAfter = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
  const subject = [{ name: "commonName", value: commonName }];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.sign(keys.privateKey, forge.md.sha256.create());
  return {
    privateKeyPem: forge.pki.privateKeyToPem(keys.privateKey),
    certificatePem: forge.pki.certificateToPem(certificate),
  };
}

export interface AssertionOptions {
  idpEntityId: string;
  /** Our side's entity id (the audience) and ACS URL (the recipient). */
  audience: string;
  acsUrl: string;
  email: string;
  displayName?: string;
  /** Validity window of the assertion, relative to now (node-saml checks it against the real time). */
  notBeforeMs?: number;
  notOnOrAfterMs?: number;
}

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/** A SAML Response whose assertion is signed by `identity` (RSA-SHA256, exclusive c14n), base64 for the form post. */
export function signedSamlResponse(identity: SigningIdentity, options: AssertionOptions): string {
  const assertionId = `_a${randomUUID().replaceAll("-", "")}`;
  const notBefore = iso(options.notBeforeMs ?? -60_000);
  const notOnOrAfter = iso(options.notOnOrAfterMs ?? 5 * 60_000);
  const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID().replaceAll("-", "")}" Version="2.0" IssueInstant="${iso(0)}" Destination="${options.acsUrl}"><saml:Issuer>${options.idpEntityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(0)}"><saml:Issuer>${options.idpEntityId}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${options.email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${options.acsUrl}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${options.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${options.displayName ?? "SSO User"}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion></samlp:Response>`;
  const signer = new SignedXml({
    privateKey: identity.privateKeyPem,
    publicCert: identity.certificatePem,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  signer.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
  });
  signer.computeSignature(xml, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: "after" },
  });
  return Buffer.from(signer.getSignedXml()).toString("base64");
}
