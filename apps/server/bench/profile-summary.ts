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
  // V8's own entries ("(garbage collector)", "(idle)") and native functions have no file.
  if (!url) return functionName.startsWith('(') ? functionName : `native ${functionName || '?'}`;
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
 * The `top` places by self time in `profile`, in milliseconds, without the time the program
 * waited (`(idle)`, `(program)`); the garbage collector is a place of its own.
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
  return (
    [...totals]
      // Waiting is not work; `dispatch` is the profiler answering its own stop.
      .filter(([place]) => !['(idle)', '(program)', 'native dispatch'].includes(place))
      .map(([place, ms]) => ({ place, ms }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top)
  );
}
