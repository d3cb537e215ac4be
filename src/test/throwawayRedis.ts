import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './freePort';

/** A redis-server on a free loopback port, nothing saved, answering PING; kill `process` when done. */
export async function startThrowawayRedis(): Promise<{ url: string; process: ChildProcess }> {
  const found = spawnSync('redis-server', ['--version']);
  if (found.error) throw new Error('redis-server is not installed (Debian: apt-get install redis-server; .ci/run installs it)');
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const end = Date.now() + 10_000;
  while (spawnSync('redis-cli', ['-p', String(port), 'ping']).stdout?.toString().trim() !== 'PONG') {
    if (Date.now() > end) {
      redis.kill('SIGKILL');
      throw new Error('redis-server did not answer');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `redis://127.0.0.1:${port}/0`, process: redis };
}
