// Reads a V8 CPU profile (Chrome DevTools' `.cpuprofile`) into the few places that took the
// most time: each sample's time goes to the function it was in (self time), and functions are
// grouped by where they live (a package of node_modules, a file of ours, Node's internals).

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
/** The part of a `.cpuprofile` this reads. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One place in a profile's summary: where, and how many milliseconds of CPU it took. */
export interface ProfileEntry {
  place: string;
  ms: number;
}

/** Where a frame's code lives: `pkg:name` for a dependency, a path under src/ for ours. */
function placeOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName ? `(${functionName})` : '(native)';
  if (url.startsWith('node:')) return url;
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(
    url,
  );
  if (dependency) return `pkg:${dependency[1]}`;
  const ours = /\/(src|bench)\/(.+)$/.exec(url);
  const file = ours ? `${ours[1]}/${ours[2]}` : url;
  return `${file} ${functionName || '(anonymous)'}`;
}

/**
 * The `top` places by self time in `profile`, in milliseconds; the program's idle time and
 * the garbage collector are kept apart (`(idle)`, `(garbage collector)`).
 */
export function topSelfTime(profile: CpuProfile, top = 12): ProfileEntry[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const place = placeOf(node.callFrame);
    totals.set(place, (totals.get(place) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return [...totals]
    .filter(([place]) => place !== '(idle)' && place !== '(program)')
    .map(([place, ms]) => ({ place, ms }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
}
