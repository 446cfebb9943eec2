import type { Orm } from './orm';

/**
 * The stored value of setting `name`, storing `make()` first when there is none. Insert-or-nothing
 * then read, so concurrent instances all end up with the first value written.
 */
export async function sharedSetting(orm: Orm, name: string, make: () => string): Promise<string> {
  const connection = orm.em.getConnection();
  await connection.execute('insert into settings (name, value) values (?, ?) on conflict (name) do nothing', [name, make()]);
  const rows = await connection.execute<{ value: string }[]>('select value from settings where name = ?', [name]);
  return rows[0].value;
}
