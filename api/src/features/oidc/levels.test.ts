/**
 * Sign-in levels (issue 37; levels.ts): what a request demands, what a session reached and what the provider
 * is told.
 */
import { describe, expect, it } from 'vitest';
import { ACR } from '@portal/contract';
import { claimsNamed, demandOf, levelOfAmr, meets, reportedAcr, reportedAmr } from './levels';

const essential = (values: string[]) => JSON.stringify({ id_token: { acr: { essential: true, values } } });

describe('sign-in levels', () => {
  it('reads the lowest published level a request names, ignoring unpublished acr_values', () => {
    expect(demandOf({})).toEqual({ level: null, essential: null, unmet: false });
    expect(demandOf({ acr_values: ACR.multiFactor }).level).toBe(ACR.multiFactor);
    expect(demandOf({ acr_values: `${ACR.multiFactor} ${ACR.password}` }).level).toBe(ACR.password);
    expect(demandOf({ acr_values: 'urn:elsewhere:gold' }).level).toBeNull();
  });

  it('lets an essential acr claim narrow the request, and marks one of no published level unmet', () => {
    expect(demandOf({ acr_values: ACR.password, claims: essential([ACR.multiFactor]) })).toEqual({
      level: ACR.multiFactor,
      essential: [ACR.multiFactor],
      unmet: false,
    });
    const single = JSON.stringify({ id_token: { acr: { essential: true, value: ACR.multiFactor } } });
    expect(demandOf({ claims: single }).level).toBe(ACR.multiFactor);
    expect(demandOf({ claims: essential(['urn:elsewhere:gold']) }).unmet).toBe(true);
    // Voluntary, unreadable or absent: no demand of its own.
    expect(demandOf({ claims: JSON.stringify({ id_token: { acr: { values: [ACR.multiFactor] } } }) }).level).toBeNull();
    expect(demandOf({ claims: '{not json' }).level).toBeNull();
  });

  it('ranks the session by its amr and reports a level an essential claim accepts', () => {
    expect(levelOfAmr(['pwd'])).toBe(ACR.password);
    expect(levelOfAmr(['pwd', 'otp'])).toBe(ACR.multiFactor);
    const mfa = demandOf({ acr_values: ACR.multiFactor });
    expect(meets(ACR.password, mfa)).toBe(false);
    expect(meets(ACR.multiFactor, mfa)).toBe(true);
    expect(meets(ACR.password, demandOf({}))).toBe(true);
    expect(reportedAcr(ACR.multiFactor, demandOf({}))).toBe(ACR.multiFactor);
    expect(reportedAcr(ACR.multiFactor, demandOf({ claims: essential([ACR.password]) }))).toBe(ACR.password);
    expect(reportedAcr(ACR.password, demandOf({ claims: essential([ACR.multiFactor]) }))).toBeNull();
    expect(reportedAmr(['pwd'])).toEqual(['pwd']);
    expect(reportedAmr(['pwd', 'otp'])).toEqual(['pwd', 'otp', 'mfa']);
  });

  it('ranks a session that used a passkey phishing-resistant, above the multi-factor level', () => {
    expect(levelOfAmr(['hwk'])).toBe(ACR.phishingResistant);
    expect(levelOfAmr(['pwd', 'otp', 'swk'])).toBe(ACR.phishingResistant);
    const phr = demandOf({ acr_values: ACR.phishingResistant });
    expect(meets(ACR.multiFactor, phr)).toBe(false);
    expect(meets(ACR.phishingResistant, demandOf({ acr_values: ACR.multiFactor }))).toBe(true);
    expect(reportedAcr(ACR.phishingResistant, demandOf({ claims: essential([ACR.multiFactor]) }))).toBe(
      ACR.multiFactor,
    );
    expect(reportedAmr(['hwk'])).toEqual(['hwk', 'mfa']);
    expect(reportedAmr(['pwd', 'swk'])).toEqual(['pwd', 'swk', 'mfa']);
  });

  it('names the claims of the claims parameter', () => {
    expect(
      claimsNamed({ claims: JSON.stringify({ id_token: { acr: null, email: null }, userinfo: { email: null } }) }),
    ).toEqual(['acr', 'email']);
    expect(claimsNamed({ claims: '[]' })).toEqual([]);
    expect(claimsNamed({})).toEqual([]);
  });
});
