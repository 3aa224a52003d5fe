// A live pull as PouchDB on Node does it, with Node's own HTTP client keeping its connection
// alive: longpoll `_changes`, then `_all_docs?include_docs=true&keys=...` for the changes, on
// one kept socket, until the document named on the command line has arrived.
//
//   node live-pull.mjs http://127.0.0.1:4984 db wanted-id
//
// Prints one JSON line per document received ({"doc": id}) and, at the end,
// {"done": true, "sockets": n, "requests": n, "reused": n}. Any failure (a socket hang up
// after a feed answer, as issue 22 saw) exits 1 with {"error": message}.
import http from 'node:http';

const [base, db, wanted] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const sockets = new Set();
let requests = 0;
let reused = 0;

function get(path) {
  return new Promise((resolve, reject) => {
    const request = http.get(base + path, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => {
        if (response.statusCode !== 200) {
          reject(new Error(`${path}: HTTP ${response.statusCode} ${body}`));
        } else {
          resolve(JSON.parse(body));
        }
      });
    });
    request.on('socket', (socket) => {
      sockets.add(socket);
      requests += 1;
      if (request.reusedSocket) reused += 1;
    });
    request.on('error', reject);
  });
}

try {
  let since = 0;
  const seen = new Set();
  while (!seen.has(wanted)) {
    const feed = await get(`/${db}/_changes?feed=longpoll&since=${since}&timeout=60000`);
    since = feed.last_seq;
    const ids = feed.results.map((change) => change.id);
    if (ids.length === 0) continue;
    const keys = encodeURIComponent(JSON.stringify(ids));
    const docs = await get(`/${db}/_all_docs?include_docs=true&keys=${keys}`);
    for (const row of docs.rows) {
      if (!row.doc) throw new Error(`no body for ${row.key}`);
      seen.add(row.id);
      console.log(JSON.stringify({ doc: row.id }));
    }
  }
  console.log(JSON.stringify({ done: true, sockets: sockets.size, requests, reused }));
  agent.destroy();
} catch (error) {
  console.log(JSON.stringify({ error: String(error && error.message || error) }));
  agent.destroy();
  process.exit(1);
}
