/** The role block the benches file requests with, read from the stack's own reference data. */

/** A 'Data Manager' block for the first study, with the role's default systems, as the public lists give them. */
export async function dataManagerBlock(base: string): Promise<{
  roleName: string;
  siteCodes: string[];
  laoIds: string[];
  studyNames: string[];
  systemAccessIds: number[];
}> {
  const roles = (await (await fetch(`${base}/rest/public/user_registration/study_roles/`)).json()) as Array<{
    roleName: string;
    systemAccessIds: number[];
  }>;
  const studies = (await (await fetch(`${base}/rest/public/studies`)).json()) as Array<{ study: string }>;
  const role = roles.find((r) => r.roleName === 'Data Manager')!;
  return {
    roleName: role.roleName,
    siteCodes: [],
    laoIds: [],
    studyNames: [studies[0]!.study],
    systemAccessIds: role.systemAccessIds,
  };
}
