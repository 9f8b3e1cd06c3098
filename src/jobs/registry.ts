import type { JobHandler, ModuleJobs, ScheduledWork } from "./queue.ts";

/** Job types by name, filled at start-up by the composition root (src/app/module-wiring.ts) with the modules' jobs. */
export const jobHandlers = new Map<string, JobHandler>();
export const scheduledWork = new Map<string, ScheduledWork>();

export function defineJob(type: string, handler: JobHandler): void {
  if (jobHandlers.has(type)) throw new Error(`Job type ${type} is defined twice`);
  jobHandlers.set(type, handler);
}

/** Names are the engine's queue names: letters, digits, hyphens. */
function defineScheduledWork(name: string, work: ScheduledWork): void {
  if (scheduledWork.has(name)) throw new Error(`Scheduled work ${name} is defined twice`);
  scheduledWork.set(name, work);
}

export function registerModuleJobs({ handlers = {}, scheduled = {} }: ModuleJobs): void {
  for (const [type, handler] of Object.entries(handlers)) defineJob(type, handler);
  for (const [name, work] of Object.entries(scheduled)) defineScheduledWork(name, work);
}
