/**
 * The sign-in timing of a known and an unknown username with wrong passwords (issue 13, docs/decisions.md
 * "Timing tells nothing either"): measured here, in `npm run bench`, not in a timed test. Each known name is
 * a fresh directory entry used for at most 4 failures (the fifth locks it and takes the short locked path),
 * each unknown name likewise, interleaved so that drift affects both alike. Reports both medians and their
 * difference; the target is that the difference stays within the noise of one sign-in.
 */
import crypto from 'node:crypto';
import { addPerson, type DirectoryConfig } from '@portal/directory';
import { median } from './timing';

/** The largest accepted difference of the two medians, in ms and as a share of the known median. */
export const SIGN_IN_TIMING_TARGET = { maxDiffMs: 10, maxDiffShare: 0.25 };

export interface SignInTiming {
  knownP50Ms: number;
  unknownP50Ms: number;
  /** |known - unknown| of the medians. */
  diffMs: number;
}

/** Times `rounds` × 4 failed sign-ins of each kind against the API at `base`. */
export async function measureSignInTiming(
  base: string,
  directory: DirectoryConfig,
  rounds = 10,
): Promise<SignInTiming> {
  const attempt = async (username: string): Promise<number> => {
    const started = performance.now();
    const res = await fetch(`${base}/rest/token/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'Wrong-Password-1!' }),
    });
    await res.arrayBuffer();
    if (res.status !== 401) throw new Error(`a wrong password for ${username} answered ${res.status}`);
    return performance.now() - started;
  };
  const known: number[] = [];
  const unknown: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const suffix = crypto.randomBytes(4).toString('hex');
    const username = `timing${suffix}`;
    await addPerson(directory, {
      username,
      firstName: 'Timing',
      lastName: 'Probe',
      email: `${username}@bench.portal.test`,
      gecos: '',
      uidNumber: 70_000 + r,
      password: `Pw-${suffix}-Aa1!xyz`,
    });
    const stranger = `stranger${suffix}`;
    for (let i = 0; i < 4; i++) {
      known.push(await attempt(username));
      unknown.push(await attempt(stranger));
    }
  }
  const knownP50Ms = median(known);
  const unknownP50Ms = median(unknown);
  return { knownP50Ms, unknownP50Ms, diffMs: Math.abs(knownP50Ms - unknownP50Ms) };
}

/** Whether the difference stays within its target (either bound suffices). */
export const signInTimingMet = (t: SignInTiming): boolean =>
  t.diffMs <= SIGN_IN_TIMING_TARGET.maxDiffMs || t.diffMs <= SIGN_IN_TIMING_TARGET.maxDiffShare * t.knownP50Ms;
