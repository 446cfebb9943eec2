/**
 * The demo data set: fixed ids so seeding is idempotent and the README and docs/ can name things. The demo API
 * keys below exist only in this data set (created by the demo seed, never by migrations).
 */
export const DEMO = {
  adminOrg: '00000000-0000-4000-8000-000000000001',
  northwind: '00000000-0000-4000-8000-000000000002',
  southside: '00000000-0000-4000-8000-000000000003',
  ada: '00000000-0000-4000-8000-000000000011',
  nora: '00000000-0000-4000-8000-000000000012',
  liam: '00000000-0000-4000-8000-000000000013',
  sam: '00000000-0000-4000-8000-000000000014',
  otto: '00000000-0000-4000-8000-000000000015',
  luna: '00000000-0000-4000-8000-000000000021',
  owls: '00000000-0000-4000-8000-000000000022',
  kai: '00000000-0000-4000-8000-000000000023',
  catalogNorthwind: '00000000-0000-4000-8000-000000000031',
  catalogShared: '00000000-0000-4000-8000-000000000032',
  catalogKai: '00000000-0000-4000-8000-000000000033',
  templatePublic: '00000000-0000-4000-8000-000000000041',
  templatePrivate: '00000000-0000-4000-8000-000000000042',
  templateShared: '00000000-0000-4000-8000-000000000043',
  sessionNora: '00000000-0000-4000-8000-000000000051',
  chatPlan: '00000000-0000-4000-8000-000000000061',
  chatPitch: '00000000-0000-4000-8000-000000000062',
} as const;

export interface DemoKey {
  id: string;
  accountId: string;
  label: string;
  raw: string;
}

export const DEMO_KEYS: DemoKey[] = [
  { id: '00000000-0000-4000-8000-0000000000a1', accountId: DEMO.ada, label: 'Ada (admin organization)', raw: 'mas_demo_ada_admin_0000000000000000000000000001' },
  { id: '00000000-0000-4000-8000-0000000000a2', accountId: DEMO.nora, label: 'Nora (Northwind Records member)', raw: 'mas_demo_nora_northwind_00000000000000000000002' },
  { id: '00000000-0000-4000-8000-0000000000a3', accountId: DEMO.sam, label: 'Sam (Southside Management member)', raw: 'mas_demo_sam_southside_000000000000000000000003' },
  { id: '00000000-0000-4000-8000-0000000000a4', accountId: DEMO.otto, label: 'Otto (no organization)', raw: 'mas_demo_otto_solo_000000000000000000000000004' },
];
