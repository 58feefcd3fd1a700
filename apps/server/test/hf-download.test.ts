import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedModel } from '../src/llm/embedded';
import { TEST_GGUF } from './harness';
import { silentLogger } from '../src/logging/logger';

const haveModel = fs.existsSync(TEST_GGUF);

/** Answers like Hugging Face: the GGUF manifest for a quantization tag, then the file itself. */
async function startHuggingFaceDouble(file: Buffer) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url === '/v2/mates-test/tiny-GGUF/manifests/Q8_0') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ggufFile: { rfilename: 'tiny-Q8_0.gguf', size: file.length } }));
      return;
    }
    if (req.url?.startsWith('/mates-test/tiny-GGUF/resolve/main/tiny-Q8_0.gguf')) {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': file.length,
        'accept-ranges': 'none',
      });
      res.end(req.method === 'HEAD' ? undefined : file);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!haveModel)('an hf: model', () => {
  let hub: Awaited<ReturnType<typeof startHuggingFaceDouble>>;
  const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-models-'));
  beforeAll(async () => {
    hub = await startHuggingFaceDouble(fs.readFileSync(TEST_GGUF));
  });
  afterAll(async () => {
    await hub.close();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  it('is downloaded once on the first start, then found on the next', async () => {
    const open = async () => {
      const model = createEmbeddedModel({
        model: 'hf:mates-test/tiny-GGUF:Q8_0',
        modelsDir,
        huggingFaceEndpoint: hub.url,
        threads: 1,
        contextSize: 512,
        parallel: 1,
        queue: 1,
        log: silentLogger(),
      });
      await model.ready;
      return model;
    };
    const first = await open();
    expect(first.unavailableReason()).toBeNull();
    const downloads = hub.requests.filter((request) =>
      request.startsWith('GET /mates-test/tiny-GGUF/resolve/'),
    ).length;
    expect(downloads).toBeGreaterThan(0);
    const saved = fs.readdirSync(modelsDir).filter((name) => name.endsWith('.gguf'));
    expect(saved).toHaveLength(1);
    expect(fs.statSync(path.join(modelsDir, saved[0]!)).size).toBe(fs.statSync(TEST_GGUF).size);
    let text = '';
    await first.generate(
      [{ role: 'user', content: 'Once' }],
      { signal: new AbortController().signal, maxTokens: 8 },
      (piece) => (text += piece),
    );
    expect(text.length).toBeGreaterThan(0);
    await first.close();

    const second = await open();
    expect(second.unavailableReason()).toBeNull();
    expect(
      hub.requests.filter((request) => request.startsWith('GET /mates-test/tiny-GGUF/resolve/'))
        .length,
    ).toBe(downloads);
    await second.close();
  });
});
