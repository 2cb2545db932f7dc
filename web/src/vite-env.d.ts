/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Sent as the x-project-name header on every call (000 §1). */
  readonly VITE_PROJECT_NAME?: string;
  /** External privacy notice opened by 'Privacy and Terms of Use' (000 §2 Sign-in screen). */
  readonly VITE_PRIVACY_URL?: string;
  /** The 'User Manual (PDF)' link (000 §2 Routes; default the PDF the API serves, /manual/user-manual.pdf). */
  readonly VITE_USER_MANUAL_URL?: string;
  /** Public support address shown in the footer (000 §1). */
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
