-- A passkey as the credential of an electronic signature (docs/decisions.md "Electronic signatures"): its
-- challenge ends with the SHA-256 of the decision and meaning it signs.
ALTER TYPE "WebAuthnPurpose" ADD VALUE 'SIGNATURE';
