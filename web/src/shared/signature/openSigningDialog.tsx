import { modals } from '@mantine/modals';
import { SIGNATURE_TEXTS } from '@portal/contract';
import { SigningForm, type SigningFormProps } from './SigningForm';

/**
 * Opens a dialog asking for the signature of one decision: `title` (the confirmation's own, or 'Electronic
 * signature'), what is decided (`children`) and the signing fields; it closes once the decision was sent
 * (or failed for another reason than the signature, which the screen shows).
 */
export function openSigningDialog({ title, ...props }: Omit<SigningFormProps, 'onClose'> & { title?: string }) {
  const modalId = `signature-${props.action}-${Date.now()}`;
  modals.open({
    modalId,
    title: title ?? SIGNATURE_TEXTS.legend,
    children: <SigningForm {...props} onClose={() => modals.close(modalId)} />,
  });
}
