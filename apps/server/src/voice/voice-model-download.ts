import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createRequire } from 'node:module';
import type * as CliProgress from 'cli-progress';

/**
 * Downloads `url` into `file` through `file.part`, renamed only once every byte came (and as many
 * as `expected`, when known): a connection cut half way leaves no file that looks whole. A
 * stream pipeline carries the bytes, so a fault of the connection rejects here and nowhere else.
 */
async function fetchToFile(
  fetchFn: typeof globalThis.fetch,
  url: string,
  file: string,
  expected: number,
  onBytes: (received: number) => void,
): Promise<void> {
  const part = `${file}.part`;
  const response = await fetchFn(url);
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`HTTP ${response.status}`);
  }
  let received = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      onBytes(received);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      count,
      fs.createWriteStream(part),
    );
    if (Number.isFinite(expected) && received !== expected)
      throw new Error(`${received} of ${expected} bytes came`);
    fs.renameSync(part, file);
  } catch (error) {
    fs.rmSync(part, { force: true });
    throw error;
  }
}

/** Options of {@link downloadVoiceModel}. */
export interface VoiceModelDownloadOptions {
  /** The model hub, e.g. `https://huggingface.co` (`SPEECH_HUB_URL`). */
  hubUrl: string;
  /** The model's repository on the hub, e.g. `csukuangfj/kokoro-en-v0_19` (`SPEECH_MODEL`). */
  repo: string;
  /** Where the model's files go: `$DATA_DIR/voices/<owner>--<name>`. */
  dir: string;
  fetch: typeof globalThis.fetch;
  /** Draws a progress bar on the console, as the language model's download does. */
  progressBar: boolean;
  /** Bytes downloaded so far of the whole model, and its total, as they grow. */
  onProgress?: (done: number, total: number) => void;
}

/** What {@link downloadVoiceModel} leaves in `dir`: the files sherpa-onnx needs, by role. */
export interface VoiceModelFiles {
  /** `kokoro` (a `voices.bin` beside the model) or `vits` (Piper and other VITS voices). */
  kind: 'kokoro' | 'vits';
  /** The ONNX network. */
  model: string;
  tokens: string;
  /** Kokoro's speaker styles. */
  voices: string | undefined;
  /** espeak-ng's data folder (phonemes), when the model reads text through espeak-ng. */
  dataDir: string | undefined;
  /** Lexicon files (comma-separated, as sherpa-onnx takes them), when the model has any. */
  lexicon: string | undefined;
  /** Jieba's dictionary folder (Chinese Kokoro models). */
  dictDir: string | undefined;
}

/** Written once every file is in place; its presence is what "downloaded" means. */
const COMPLETE = 'complete.json';

/** The model's folder name under `$DATA_DIR/voices`: the repository, `/` made `--` as the hub's own cache does. */
export const voiceModelFolder = (repo: string) => repo.replaceAll('/', '--');

/**
 * What a kind of model takes of a hub repository: `select` picks the files it reads (and says
 * which plays which role, relative to the folder) or answers `null` when the repository is not
 * that kind of model; `absolute` makes the roles' paths absolute under the folder.
 */
export interface HubModelPick<T> {
  /** What the model is, for messages: `speech model`, `transcription model`. */
  label: string;
  /** What a repository must hold, for the refusal of one that does not. */
  needs: string;
  select: (names: string[]) => { files: string[]; chosen: T } | null;
  absolute: (dir: string, chosen: T) => T;
}

/** Of a repository's files, the ones synthesis reads (no README, scripts, samples or spare networks). */
function neededFiles(names: string[]): { files: string[]; chosen: VoiceModelFiles } | null {
  const onnx = names.filter((name) => !name.includes('/') && name.endsWith('.onnx'));
  // A Kokoro repository ships `model.onnx` (and sometimes an int8 twin); a Piper one, one network.
  const model = onnx.includes('model.onnx') ? 'model.onnx' : onnx[0];
  if (!model || !names.includes('tokens.txt')) return null;
  const lexicons = names.filter((name) => /^lexicon[^/]*\.txt$/.test(name));
  const inFolder = (folder: string) => names.filter((name) => name.startsWith(`${folder}/`));
  const files = [
    model,
    'tokens.txt',
    ...(names.includes('voices.bin') ? ['voices.bin'] : []),
    ...lexicons,
    ...inFolder('espeak-ng-data'),
    ...inFolder('dict'),
  ];
  return {
    files,
    chosen: {
      kind: names.includes('voices.bin') ? 'kokoro' : 'vits',
      model,
      tokens: 'tokens.txt',
      voices: names.includes('voices.bin') ? 'voices.bin' : undefined,
      dataDir: inFolder('espeak-ng-data').length > 0 ? 'espeak-ng-data' : undefined,
      lexicon: lexicons.length > 0 ? lexicons.join(',') : undefined,
      dictDir: inFolder('dict').length > 0 ? 'dict' : undefined,
    },
  };
}

/** Makes every path of `chosen` absolute under `dir`. */
function absolute(dir: string, chosen: VoiceModelFiles): VoiceModelFiles {
  const at = (name: string | undefined) =>
    name === undefined
      ? undefined
      : name
          .split(',')
          .map((part) => path.join(dir, part))
          .join(',');
  return {
    kind: chosen.kind,
    model: at(chosen.model)!,
    tokens: at(chosen.tokens)!,
    voices: at(chosen.voices),
    dataDir: at(chosen.dataDir),
    lexicon: at(chosen.lexicon),
    dictDir: at(chosen.dictDir),
  };
}

/** The completion record of `dir`, when every file it names is there at its size. */
function completed<T>(dir: string): T | null {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(dir, COMPLETE), 'utf8')) as {
      chosen: T;
      sizes: Record<string, number>;
    };
    for (const [name, size] of Object.entries(record.sizes))
      if (fs.statSync(path.join(dir, name)).size !== size) return null;
    return record.chosen;
  } catch {
    return null;
  }
}

/**
 * A speech model of the hub, downloaded once into `dir`: the repository's file list from the
 * hub's API (`GET /api/models/<repo>`, as `huggingface_hub` reads it), then each needed file from
 * `/<repo>/resolve/main/<file>`, each through a `.part` file renamed only when whole, with a
 * progress bar (cli-progress) on a terminal. (ipull, which node-llama-cpp uses, was tried first:
 * a hub hanging up mid-file left an unhandled rejection inside it, which ends a Node process.) When all are in, `complete.json` records their sizes; a later start that finds it, with
 * every file at its size, touches no network. Rejects with a plain `Error` that names the file.
 */
export function downloadVoiceModel(options: VoiceModelDownloadOptions): Promise<VoiceModelFiles> {
  return downloadHubModel(options, {
    label: 'speech model',
    needs: 'a sherpa-onnx speech model (no .onnx network and tokens.txt)',
    select: neededFiles,
    absolute,
  });
}

/**
 * A model of the hub that `pick` recognises, downloaded once into `options.dir` as
 * {@link downloadVoiceModel} tells; speech synthesis and transcription models share it.
 */
export async function downloadHubModel<T>(
  options: VoiceModelDownloadOptions,
  pick: HubModelPick<T>,
): Promise<T> {
  const whole = completed<T>(options.dir);
  if (whole) return pick.absolute(options.dir, whole);

  const hub = options.hubUrl.replace(/\/+$/, '');
  // `blobs=true` adds each file's size, as `huggingface_hub` asks for it.
  const listing = `${hub}/api/models/${options.repo}?blobs=true`;
  let response: Response;
  try {
    response = await options.fetch(listing);
  } catch (error) {
    throw new Error(`the model hub ${hub} cannot be reached (${(error as Error).message})`, {
      cause: error,
    });
  }
  if (!response.ok)
    throw new Error(`the model hub has no ${pick.label} ${options.repo} (HTTP ${response.status})`);
  const body = (await response.json().catch(() => null)) as {
    siblings?: { rfilename?: unknown; size?: unknown }[];
  } | null;
  const listed = new Map<string, number>();
  for (const sibling of body?.siblings ?? [])
    if (typeof sibling.rfilename === 'string')
      listed.set(sibling.rfilename, typeof sibling.size === 'number' ? sibling.size : NaN);
  const names = [...listed.keys()];
  const needed = pick.select(names);
  if (!needed) throw new Error(`${options.repo} is not ${pick.needs}`);

  for (const name of needed.files)
    fs.mkdirSync(path.dirname(path.join(options.dir, name)), { recursive: true });
  const urlOf = (name: string) =>
    `${hub}/${options.repo}/resolve/main/${name.split('/').map(encodeURIComponent).join('/')}`;
  const lengthOf = (name: string) => listed.get(name) ?? NaN;
  const known = needed.files.reduce((sum, name) => sum + (lengthOf(name) || 0), 0);
  // The bar's library is required only when a terminal shows it.
  const progress = () => createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
  const bar: CliProgress.SingleBar | null =
    options.progressBar && process.stdout.isTTY
      ? new (progress().SingleBar)(
          { format: `${pick.label} ${options.repo} [{bar}] {percentage}% {value}/{total} bytes` },
          progress().Presets.shades_classic,
        )
      : null;
  let done = 0;
  bar?.start(known, 0);
  try {
    for (const name of needed.files) {
      const file = path.join(options.dir, name);
      // A file already whole from an earlier, interrupted start is kept.
      if (fs.existsSync(file) && fs.statSync(file).size === lengthOf(name)) {
        done += lengthOf(name);
        options.onProgress?.(done, known);
        bar?.update(done);
        continue;
      }
      const before = done;
      await fetchToFile(options.fetch, urlOf(name), file, lengthOf(name), (received) => {
        done = before + received;
        options.onProgress?.(done, Math.max(known, done));
        bar?.update(done);
      }).catch((error: unknown) => {
        throw new Error(
          `the ${pick.label} ${options.repo} was cut off while downloading ${name}: ${(error as Error).message}`,
          { cause: error },
        );
      });
    }
  } finally {
    bar?.stop();
  }
  const sizes: Record<string, number> = {};
  for (const name of needed.files) {
    const file = path.join(options.dir, name);
    if (!fs.existsSync(file))
      throw new Error(`the ${pick.label} ${options.repo} is missing ${name} after its download`);
    sizes[name] = fs.statSync(file).size;
  }
  fs.writeFileSync(
    path.join(options.dir, COMPLETE),
    JSON.stringify({ chosen: needed.chosen, sizes }),
  );
  return pick.absolute(options.dir, needed.chosen);
}
