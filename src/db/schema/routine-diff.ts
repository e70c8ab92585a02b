import type { Knex } from 'knex';
import type { FunctionPlan, TriggerPlan } from '../../engine/compile/plan-schema.ts';

/**
 * Trigger functions and row triggers, live and planned (the changes feed's,
 * plan-sync.ts): what `introspectSchema` reads of them, and the DDL that
 * brings the live schema to the plan. A function whose source differs is
 * replaced; a trigger of the plan's name that fires at another time, on other
 * events or calls another function is a problem for a person (it may be
 * someone's own). Every planned trigger fires in every session
 * (`pg_trigger.tgenabled = 'A'`, `ENABLE ALWAYS`): one that does not is
 * enabled so. Triggers the plan lacks are left alone.
 */

export interface LiveFunction {
  readonly name: string;
  readonly body: string;
}

export interface LiveTrigger {
  readonly table: string;
  readonly name: string;
  /** `pg_trigger.tgtype`: row 1, before 2, insert 4, delete 8, update 16, truncate 32. */
  readonly type: number;
  /** `pg_trigger.tgenabled`: `O` (origin and local sessions), `A` (always), `R` (replica sessions only), `D` (disabled). */
  readonly enabled: string;
  readonly function: string;
  /** The trigger's `WHEN` condition as Postgres prints it, or null. */
  readonly when: string | null;
  /** Its DDL as Postgres prints it (`pg_get_triggerdef`): what undoes a replacement. */
  readonly definition: string;
}

type Rows<T> = { rows: T[] };

/** The trigger functions and the user-made triggers of the current schema. */
export async function introspectRoutines(db: Knex): Promise<{ functions: LiveFunction[]; triggers: LiveTrigger[] }> {
  const functions = (await db.raw(
    `select p.proname as "name", p.prosrc as "body" from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and p.prorettype = 'trigger'::regtype`,
  )) as Rows<LiveFunction>;
  const triggers = (await db.raw(
    `select c.relname as "table", t.tgname as "name", t.tgtype::int as "type", t.tgenabled::text as "enabled", p.proname as "function",
            substring(pg_get_triggerdef(t.oid) from ' WHEN (.*) EXECUTE FUNCTION ') as "when", pg_get_triggerdef(t.oid) as "definition"
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_proc p on p.oid = t.tgfoid
      where n.nspname = current_schema() and not t.tgisinternal`,
  )) as Rows<LiveTrigger>;
  return { functions: functions.rows, triggers: triggers.rows.map((row) => ({ ...row, type: Number(row.type) })) };
}

const EVENT_BITS = { insert: 4, delete: 8, update: 16, truncate: 32 } as const;

/** The `tgtype` Postgres gives the trigger a plan describes. */
export function triggerType(trigger: TriggerPlan): number {
  return (trigger.level === 'row' ? 1 : 0) + (trigger.timing === 'before' ? 2 : 0) + trigger.events.reduce((bits, event) => bits + EVENT_BITS[event], 0);
}

export function createFunction(plan: FunctionPlan): string {
  return `create or replace function "${plan.name}"() returns trigger language plpgsql as $$${plan.body}$$`;
}

export function createTrigger(plan: TriggerPlan): string {
  const when = plan.when === null ? '' : ` when (${plan.when})`;
  return `create trigger "${plan.name}" ${plan.timing} ${plan.events.join(' or ')} on "${plan.table}" for each ${plan.level}${when} execute function "${plan.function}"()`;
}

/** Makes a trigger fire in every session, replica ones included (a created trigger fires in origin and local ones only). */
export function enableAlways(plan: Pick<TriggerPlan, 'table' | 'name'>): string {
  return `alter table "${plan.table}" enable always trigger "${plan.name}"`;
}

/** The statement that gives a trigger back the `tgenabled` it had: what undoes `enableAlways`. */
export function enableAs({ table, name, enabled }: { table: string; name: string; enabled: string }): string {
  const how: Record<string, string> = { A: 'enable always', R: 'enable replica', D: 'disable' };
  return `alter table "${table}" ${how[enabled] ?? 'enable'} trigger "${name}"`;
}

/** The key under which a trigger's former `tgenabled` is kept, as the statement that restores it (`SchemaDiff.dropped`). */
export const enabledTriggerKey = (table: string, name: string): string => `enabled:${table}.${name}`;

/**
 * A condition without what printing adds or drops (parentheses, quotes,
 * spacing, case): Postgres prints `WHEN ((old.brand_id IS DISTINCT FROM ...))`
 * for the plan's `old."brand_id" is distinct from ...`.
 */
const conditionText = (when: string | null): string => (when ?? '').replace(/[()"\s]/g, '').toLowerCase();

/** The key under which a replaced function's former DDL is kept (`SchemaDiff.dropped`). */
export const replacedFunctionKey = (name: string): string => `function:${name}`;

/** The key under which a replaced trigger's former DDL is kept (`SchemaDiff.dropped`). */
export const replacedTriggerKey = (table: string, name: string): string => `trigger:${table}.${name}`;

/**
 * Functions to create or replace and triggers to create or replace, in that
 * order; clashing triggers as problems; the former DDL of each replaced trigger.
 */
export function diffRoutines({ functions, triggers, live }: {
  functions: readonly FunctionPlan[];
  triggers: readonly TriggerPlan[];
  live: { functions: readonly LiveFunction[]; triggers: readonly LiveTrigger[] };
}): { statements: string[]; problems: string[]; replaced: Record<string, string> } {
  const statements: string[] = [];
  const problems: string[] = [];
  const replaced: Record<string, string> = {};
  for (const plan of functions) {
    const found = live.functions.find((f) => f.name === plan.name);
    if (!found || found.body !== plan.body) statements.push(createFunction(plan));
    // The former source, for a migration's down: dropping a replaced function would drop its triggers with it.
    if (found && found.body !== plan.body) replaced[replacedFunctionKey(plan.name)] = createFunction(found);
  }
  for (const plan of triggers) {
    const found = live.triggers.find((t) => t.table === plan.table && t.name === plan.name);
    if (!found) {
      statements.push(createTrigger(plan), enableAlways(plan));
      continue;
    }
    if (found.type !== triggerType(plan) || found.function !== plan.function) {
      problems.push(`${plan.table}: the trigger ${plan.name} exists but is not the registry's (${createTrigger(plan)})`);
      continue;
    }
    const replace = conditionText(found.when) !== conditionText(plan.when);
    if (replace) {
      // Same trigger, a condition of an earlier plan: replaced in place, never dropped and re-made (no moment without it).
      statements.push(createTrigger(plan).replace(/^create trigger/, 'create or replace trigger'));
      replaced[replacedTriggerKey(plan.table, plan.name)] = found.definition.replace(/^CREATE TRIGGER/, 'CREATE OR REPLACE TRIGGER');
    }
    // A replaced trigger fires as a new one does, in origin and local sessions only.
    if (replace || found.enabled !== 'A') {
      statements.push(enableAlways(plan));
      replaced[enabledTriggerKey(plan.table, plan.name)] = enableAs(found);
    }
  }
  return { statements, problems, replaced };
}
