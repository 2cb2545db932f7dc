import 'altcha/external';
import 'altcha/altcha.css';
import type {} from 'altcha/types/react';
import { Input } from '@mantine/core';
import PbkdfWorker from 'altcha/workers/pbkdf2?worker';
import ShaWorker from 'altcha/workers/sha?worker';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { CAPTCHA_CHALLENGE_URL } from '../api/captchaChallenge';

/**
 * The public registration form's captcha (001 §2.1, §5): ALTCHA, a self-hosted proof of work, so no third-party
 * service is involved. The widget fetches its challenge from the API and solves it in web workers served by the
 * portal itself ('altcha/external' with the workers as separate files, so the CSP needs no blob: or inline
 * script). `onChange` receives the payload once verified (the form sends it as `g-recaptcha-response`) and null
 * when it expires or is reset; `reset()` asks for a new solution after a refused submit.
 */

// 'altcha/external' bundles no solver: register the algorithms the server's challenges may use, once.
for (const name of ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512']) {
  $altcha.algorithms.set(name, () => new PbkdfWorker());
}
for (const name of ['SHA-256', 'SHA-384', 'SHA-512']) {
  $altcha.algorithms.set(name, () => new ShaWorker());
}

export interface CaptchaHandle {
  reset: () => void;
}

interface AltchaElement extends HTMLElement {
  reset?: () => void;
}

type StateChange = CustomEvent<{ state?: string; payload?: string | null }>;

export function Captcha({
  onChange,
  error,
  ref,
}: {
  onChange: (payload: string | null) => void;
  error?: string;
  ref?: Ref<CaptchaHandle>;
}) {
  const widget = useRef<AltchaElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useImperativeHandle(ref, () => ({
    reset: () => {
      widget.current?.reset?.();
      onChangeRef.current(null);
    },
  }));

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const onState = (event: Event) => {
      const { state, payload } = (event as StateChange).detail ?? {};
      onChangeRef.current(state === 'verified' && payload ? payload : null);
    };
    element.addEventListener('statechange', onState);
    return () => element.removeEventListener('statechange', onState);
  }, []);

  return (
    <Input.Wrapper
      id="registration-captcha"
      label="Verification"
      description="Confirm you are a person: tick the box and wait a moment while your browser does a short check."
      error={error}
      inputWrapperOrder={['label', 'description', 'input', 'error']}
    >
      <div data-testid="captcha">
        <altcha-widget ref={widget} challenge={CAPTCHA_CHALLENGE_URL} name="g-recaptcha-response" />
      </div>
    </Input.Wrapper>
  );
}
