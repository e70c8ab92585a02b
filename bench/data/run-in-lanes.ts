/** A unit of work that may start once the tasks it names are done. */
export interface LaneTask<Lane> {
  readonly name: string;
  readonly after?: readonly string[];
  run(lane: Lane): Promise<void>;
}

/** Unknown or circular dependencies would leave lanes waiting forever: refused before anything runs. */
function checkTasks(tasks: readonly LaneTask<unknown>[]): void {
  const byName = new Map(tasks.map((task) => [task.name, task]));
  if (byName.size !== tasks.length) throw new Error('task names must be unique');
  const ordered = new Set<string>();
  let progress = true;
  while (progress && ordered.size < tasks.length) {
    progress = false;
    for (const task of tasks) {
      if (ordered.has(task.name)) continue;
      for (const dependency of task.after ?? []) {
        if (!byName.has(dependency)) throw new Error(`task '${task.name}' waits for unknown task '${dependency}'`);
      }
      if ((task.after ?? []).every((dependency) => ordered.has(dependency))) {
        ordered.add(task.name);
        progress = true;
      }
    }
  }
  if (ordered.size < tasks.length) {
    throw new Error(`tasks wait on each other: ${tasks.filter((t) => !ordered.has(t.name)).map((t) => t.name).join(', ')}`);
  }
}

/**
 * Runs tasks on a fixed set of lanes (database sessions): each lane runs one
 * task at a time, a task starts as soon as its dependencies are done, and
 * earlier tasks of the list go first. The first failure stops new tasks from
 * starting and is thrown once the running ones have settled.
 */
export async function runInLanes<Lane>({ lanes, tasks }: { lanes: readonly Lane[]; tasks: readonly LaneTask<Lane>[] }): Promise<void> {
  checkTasks(tasks);
  const done = new Set<string>();
  const pending = [...tasks];
  let failure: { error: unknown } | null = null;
  // Settled whenever a task finishes, so idle lanes look again for work that became ready.
  let taskFinished: { promise: Promise<void>; resolve: () => void } = signal();

  const nextReady = (): LaneTask<Lane> | null => {
    const index = pending.findIndex((task) => (task.after ?? []).every((dependency) => done.has(dependency)));
    return index === -1 ? null : pending.splice(index, 1)[0]!;
  };

  const work = async (lane: Lane): Promise<void> => {
    while (failure === null && pending.length > 0) {
      const task = nextReady();
      if (!task) {
        await taskFinished.promise;
        continue;
      }
      try {
        await task.run(lane);
        done.add(task.name);
      } catch (error) {
        failure ??= { error };
      } finally {
        const finished = taskFinished;
        taskFinished = signal();
        finished.resolve();
      }
    }
  };
  await Promise.all(lanes.map(work));
  if (failure !== null) throw (failure as { error: unknown }).error;
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
