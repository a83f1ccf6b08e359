// The baseline of `npm run bench`: a bare node:http server answering the recorded bytes of each operation.
import http from 'node:http';
import fs from 'node:fs';

const [answersFile, port] = process.argv.slice(2);
/** "METHOD /path?query" → { status, headers, body } as the real service answered it once. */
const answers = JSON.parse(fs.readFileSync(answersFile, 'utf8'));
for (const answer of Object.values(answers)) answer.bytes = Buffer.from(answer.body, 'utf8');

http
  .createServer((request, response) => {
    const answer = answers[`${request.method} ${request.url}`];
    request.resume();
    request.on('end', () => {
      if (!answer) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(answer.status, { ...answer.headers, 'content-length': answer.bytes.length });
      response.end(answer.bytes);
    });
  })
  .listen(Number(port), '127.0.0.1');
