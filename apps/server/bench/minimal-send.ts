// A second reference for the chat figures (#38): the least a send must do before its first
// byte, by the issue's own list, and nothing else. It knows who is asking from a session kept
// in memory, appends the person's message as one row (SQLite: a write-ahead log synced by the
// same group sync as Mates'; PostgreSQL: one prepared insert) while it asks the provider as the
// relay does, holds the provider's text until the row is durable, writes each piece of it as a
// `reply-delta` event, and saves the reply once it has ended. No framework, no prompt from history, no
// charge, no lock, no log line. Where it stands between the relay and Mates says how much of
// Mates' overhead any send that keeps what a person wrote pays on this machine, and how much
// is Mates' own.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { createParser } from 'eventsource-parser';
import { fileSync, groupSync } from '../src/db/sqlite-dialect';

const TABLE = `create table if not exists minimal_send_messages (
  id text primary key, room_id text not null, role text not null, content text not null,
  created_at text not null)`;
const INSERT = 'insert into minimal_send_messages (id, room_id, role, content, created_at) values ';

/** Appends one row and answers once it is durable. */
type Append = (row: [string, string, string, string, string]) => Promise<void>;

async function sqliteAppend(file: string): Promise<{ append: Append; close: () => void }> {
  const database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.exec(TABLE);
  const insert = database.prepare(`${INSERT}(?, ?, ?, ?, ?)`);
  const wal = fileSync(`${file}-wal`);
  const durable = groupSync(wal.sync);
  return {
    append: (row) => {
      insert.run(row);
      return durable();
    },
    close: () => {
      wal.close();
      database.close();
    },
  };
}

async function postgresAppend(url: string): Promise<{ append: Append; close: () => void }> {
  // As many connections as Mates' own pool (pg's default).
  const pool = new pg.Pool({ connectionString: url });
  await pool.query(TABLE);
  return {
    append: async (row) => {
      await pool.query({
        name: 'minimal-send-insert',
        text: `${INSERT}($1, $2, $3, $4, $5)`,
        values: row,
      });
    },
    close: () => void pool.end(),
  };
}

/**
 * Starts the minimal send in this process on a free port, in front of `providerUrl`'s
 * `/chat/completions`, with its rows in `database` (a SQLite file or a PostgreSQL URL). It
 * answers the bench's sends (`{ roomId, content }` with a `token` header) for the tokens in
 * `sessions`; the URL to send to, and a way to stop it.
 */
export async function startMinimalSend(
  providerUrl: string,
  database: { sqliteFile: string } | { url: string },
  sessions: Map<string, string>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const endpoint = new URL(`${providerUrl}/chat/completions`);
  const agent = new http.Agent({ keepAlive: true });
  const store =
    'url' in database
      ? await postgresAppend(database.url)
      : await sqliteAppend(database.sqliteFile);
  const server = http.createServer((req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => answer());
    const answer = () => {
      const user = sessions.get(String(req.headers.token));
      if (!user) return res.writeHead(401).end();
      const { roomId, content } = JSON.parse(Buffer.concat(pieces).toString()) as {
        roomId: string;
        content: string;
      };
      // The provider is asked while the message is written; its text waits for the write.
      const saved = store.append([randomUUID(), roomId, 'user', content, new Date().toISOString()]);
      // Not kept: the stream is cut (a rejection left unheard until the provider answers would
      // end the process).
      saved.catch(() => res.destroy());
      const body = JSON.stringify({
        model: 'bench',
        stream: true,
        messages: [{ role: 'user', content }],
      });
      const upstream = http.request(
        endpoint,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (provided) =>
          void saved.then(
            () => relay(provided),
            () => provided.destroy(),
          ),
      );
      const relay = (provided: http.IncomingMessage) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let reply = '';
        const parser = createParser({
          onEvent: ({ data }) => {
            if (data === '[DONE]') return;
            const text = (JSON.parse(data) as { choices: { delta: { content?: string } }[] })
              .choices[0]?.delta.content;
            if (!text) return;
            reply += text;
            res.write(`data: ${JSON.stringify({ type: 'reply-delta', text })}\n\n`);
          },
        });
        provided.setEncoding('utf8');
        provided.on('data', (text: string) => parser.feed(text));
        provided.on('end', () => {
          store.append([randomUUID(), roomId, 'mate', reply, new Date().toISOString()]).then(
            () => res.end('data: [DONE]\n\n'),
            () => res.destroy(),
          );
        });
      };
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 4096, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      store.close();
    },
  };
}
