/** The first key of mini-dbt's advisory locks ('MDBT'); the second is the hash of a relation's name (or of a reserved one). */
export const ADVISORY_NAMESPACE = 0x4d444254;
