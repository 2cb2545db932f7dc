import type { ProvisioningConnection, SystemDetail } from '@portal/contract';
import type { PageMessage } from '../../shared/ErrorAlert';

/** What each part of a system's Provisioning (SCIM) section is given by the section (issue 41). */
export interface ProvisioningPartProps {
  system: SystemDetail;
  connection: ProvisioningConnection;
  readOnly: boolean;
  onMessage: (message: PageMessage | null) => void;
}
