/**
 * What the sign-in's second step costs (docs/decisions.md "Second factors"): a sign-in with the password and
 * an authenticator code beside a sign-in with the password alone, through the API's routes, measured in the
 * same run. A code is accepted once per 30-second step, so each measured person signs in once: `PEOPLE`
 * people without a factor and as many with one (their factors enrolled through the real store), interleaved
 * so that drift affects both alike. Target: the second step adds under 20 ms to the median. Alone:
 *
 *   cd tests && npx tsx --conditions=development bench/second-step.ts
 */
import crypto from 'node:crypto';
import { DirectoryConfigSchema, addPerson } from '@portal/directory';
import { createPrisma } from '@portal/db';
import { totpCode } from '../../api/src/auth/totp';
import type { ThrowawayStack } from '../support/throwaway-stack';
import { runAlone, signInAs } from './stack';
import { median } from './timing';
import { enrolConfirmed } from '../support/totp-codes';

const PEOPLE = Number(process.env.BENCH_SECOND_STEP_PEOPLE ?? 25);

/** The largest accepted addition of the second step to the sign-in's median, in ms. */
export const SECOND_STEP_TARGET = { maxAddedP50Ms: 20 };

export interface SecondStepFigures {
  people: number;
  passwordOnlyP50Ms: number;
  withCodeP50Ms: number;
  secondStepAloneP50Ms: number;
  addedP50Ms: number;
}

/** Measures the figures above on the bench stack `stack`. */
export async function measureSecondStep(stack: ThrowawayStack): Promise<SecondStepFigures> {
  const base = stack.urls.portal;
  const directory = DirectoryConfigSchema.parse(stack.portalEnv);
  const key = stack.portalEnv.SECOND_FACTOR_KEY!;
  const prisma = createPrisma(stack.urls.database);
  try {
    const make = async (tag: string, i: number) => {
      const suffix = crypto.randomBytes(4).toString('hex');
      const username = `step${tag}${suffix}`;
      const password = `Pw-${suffix}-Aa1!xyz`;
      await addPerson(directory, {
        username,
        firstName: 'Step',
        lastName: tag,
        email: `${username}@bench.portal.test`,
        gecos: '',
        uidNumber: 72_000 + i,
        password,
      });
      const user = await prisma.portalUser.create({
        data: { username, firstName: 'Step', lastName: tag, email: `${username}@bench.portal.test` },
      });
      return { id: user.id, username, password };
    };
    const plain = [];
    const withApp = [];
    for (let i = 0; i < PEOPLE; i++) {
      plain.push(await make('p', i));
      const person = await make('f', PEOPLE + i);
      // Confirmed with no code used: the sign-in takes the current one (support/totp-codes.ts).
      const enrolment = await enrolConfirmed(prisma, key, person, 'Bench');
      withApp.push({ ...person, secret: enrolment.secret });
    }
    const passwordOnly: number[] = [];
    const withCode: number[] = [];
    const stepAlone: number[] = [];
    for (let i = 0; i < PEOPLE; i++) {
      let t = performance.now();
      await signInAs(base, plain[i]!.username, plain[i]!.password);
      passwordOnly.push(performance.now() - t);

      const p = withApp[i]!;
      // The code is computed before the clock starts: the person reads it off the app.
      const code = await totpCode(p.secret);
      t = performance.now();
      const s = await signInAs(base, p.username, p.password);
      const stepStarted = performance.now();
      const res = await fetch(`${base}/rest/secure/token/second_factor`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...s.headers },
        body: JSON.stringify({ code }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the second step of ${p.username} answered ${res.status}`);
      const end = performance.now();
      withCode.push(end - t);
      stepAlone.push(end - stepStarted);
    }
    const passwordOnlyP50Ms = median(passwordOnly);
    const withCodeP50Ms = median(withCode);
    return {
      people: PEOPLE,
      passwordOnlyP50Ms,
      withCodeP50Ms,
      secondStepAloneP50Ms: median(stepAlone),
      addedP50Ms: withCodeP50Ms - passwordOnlyP50Ms,
    };
  } finally {
    await prisma.$disconnect();
  }
}

/** The missed target, if any. */
export const secondStepMissed = (f: SecondStepFigures): string[] =>
  f.addedP50Ms > SECOND_STEP_TARGET.maxAddedP50Ms
    ? [`the second step adds ${f.addedP50Ms.toFixed(1)} ms to the sign-in p50 (> ${SECOND_STEP_TARGET.maxAddedP50Ms})`]
    : [];

runAlone(import.meta.url, 'bench-second-step', measureSecondStep, (f) => ({ figures: f, missed: secondStepMissed(f) }));
