/**
 * The person fields that the user screens' answers share (000 §3 User and Profile; 000 §2 Users list): one
 * home for their wire types, which Profile (schemas.ts), User (user-detail.ts) and the Users list row
 * (users.ts) spread in the order they answer them.
 */
import { z } from 'zod';

/** The account's directory identity and name, in the order Profile and the Users list answer them. */
export const PersonIdentitySchema = z.object({
  uuid: z.string().nullable(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});

/**
 * The Organization Details and the mailing address up to the city (000 §2 User detail and Profile Details
 * tab). Country and state follow in each answer's own form (codes on the User, objects on the Profile).
 */
export const PersonDetailsSchema = z.object({
  organizationName: z.string(),
  jobTitle: z.string(),
  phoneNumber: z.string(),
  /** The phone extension ('' when none): the proxy registration's requester banner shows it (001 §2.2). */
  phoneExtension: z.string(),
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
});
