import { z } from 'zod';

/** Reference data beyond sites and studies (000 §3 Country, State, LAO-site-study relation; 000 §7). */

export const CountrySchema = z.object({ country: z.string(), countryName: z.string() });
export type Country = z.infer<typeof CountrySchema>;

export const StateSchema = z.object({ state: z.string(), stateName: z.string() });
export type State = z.infer<typeof StateSchema>;

/** 000 §3 LAO-site-study relation, as GET /rest/public/site_relation sends it. */
export const SiteRelationSchema = z.object({
  id: z.number().int(),
  active: z.boolean(),
  dchng: z.string(),
  sysdat: z.string(),
  lao: z.object({ laoCode: z.string() }),
  site: z.object({ siteCode: z.string() }),
  study: z.object({ study: z.string() }),
});
export type SiteRelation = z.infer<typeof SiteRelationSchema>;

/** The `{country}` of GET /rest/public/states/{country}: an ISO 3166-1 alpha-2 code, any case. */
export const CountryParamsSchema = z.object({
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .transform((c) => c.toUpperCase()),
});

/** Secured studies also list inactive ones, for the administration screens. */
export const AdminStudySchema = z.object({ study: z.string(), active: z.boolean() });
export type AdminStudy = z.infer<typeof AdminStudySchema>;
