import { resolve } from 'node:path';
import { expect } from 'chai';
import { checkServeConfig, ConfigError, DEFAULTS, loadConfig } from '../../src/server/config.ts';

const SECRET = 'a'.repeat(32);

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has the defaults: port 3000, 1000 requests per 60 s, embedded database, in-process counters', () => {
    const config = loadConfig({});
    expect(config).to.deep.include({
      databaseUrl: null,
      redisUrl: null,
      port: 3000,
      rateLimitPoints: 1000,
      rateLimitWindowSeconds: 60,
      cursorSecrets: null,
      logLevel: 'info',
    });
    expect(config.dataDir).to.equal(resolve('.data'));
    expect(DEFAULTS).to.deep.include({ port: 3000, rateLimitPoints: 1000, rateLimitWindowSeconds: 60 });
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({ PORT: '', RATE_LIMIT_POINTS: '', DATABASE_URL: '', REDIS_URL: '', CURSOR_SECRET: '' });
    expect(config).to.deep.include({ port: 3000, rateLimitPoints: 1000, databaseUrl: null, redisUrl: null, cursorSecrets: null });
  });

  it('reads every setting', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@h:5432/d',
      REDIS_URL: 'redis://h:6379',
      PORT: '8080',
      RATE_LIMIT_POINTS: '5',
      RATE_LIMIT_WINDOW_SECONDS: '10',
      CURSOR_SECRET: SECRET,
      DATA_DIR: '/tmp/somewhere',
      LOG_LEVEL: 'warn',
    });
    expect(config).to.deep.include({
      databaseUrl: 'postgres://u@h:5432/d',
      redisUrl: 'redis://h:6379',
      port: 8080,
      rateLimitPoints: 5,
      rateLimitWindowSeconds: 10,
      cursorSecrets: [SECRET],
      dataDir: '/tmp/somewhere',
      logLevel: 'warn',
    });
    expect(loadConfig({ PORT: '0' }).port).to.equal(0);
  });

  it('refuses bad numbers, naming the variable', () => {
    const cases: [string, string][] = [
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '-1'],
      ['PORT', '80.5'],
      ['PORT', ' 80'],
      ['PORT', '1e3'],
      ['RATE_LIMIT_POINTS', '0'],
      ['RATE_LIMIT_POINTS', 'many'],
      ['RATE_LIMIT_POINTS', '-5'],
      ['RATE_LIMIT_WINDOW_SECONDS', '0'],
      ['RATE_LIMIT_WINDOW_SECONDS', '86401'],
      ['RATE_LIMIT_WINDOW_SECONDS', '1.5'],
      ['DATABASE_POOL_MAX', '0'],
      ['DATABASE_STATEMENT_CACHE', '-1'],
      ['DATABASE_STATEMENT_CACHE', '10001'],
      ['DATABASE_STATEMENT_CACHE', 'off'],
    ];
    for (const [name, value] of cases) {
      const error = configError({ [name]: value });
      expect(error.message, `${name}=${value}`).to.contain(name);
    }
  });

  it('prepares up to 200 statements per connection by default; 0 turns preparing off', () => {
    expect(loadConfig({}).databaseStatementCache).to.equal(200);
    expect(loadConfig({ DATABASE_STATEMENT_CACHE: '0' }).databaseStatementCache).to.equal(0);
    expect(loadConfig({ DATABASE_STATEMENT_CACHE: '50' }).databaseStatementCache).to.equal(50);
  });

  it('DATABASE_POOLER=transaction: nothing prepared unless asked, and no session connection unless DATABASE_SESSION_URL names one', () => {
    const url = 'postgres://u@pooler:6432/d';
    const direct = loadConfig({ DATABASE_URL: url });
    expect([direct.databasePooler, direct.databaseSessionUrl, direct.databaseStatementCache]).to.deep.equal([null, url, 200]);
    const pooled = loadConfig({ DATABASE_URL: url, DATABASE_POOLER: 'transaction' });
    expect([pooled.databasePooler, pooled.databaseSessionUrl, pooled.databaseStatementCache]).to.deep.equal(['transaction', null, 0]);
    const session = 'postgres://u@primary:5432/d';
    const both = loadConfig({ DATABASE_URL: url, DATABASE_POOLER: 'transaction', DATABASE_SESSION_URL: session, DATABASE_STATEMENT_CACHE: '100' });
    expect([both.databaseSessionUrl, both.databaseStatementCache], 'a pooler that keeps statements (PgBouncer 1.21+) may have them').to.deep.equal([session, 100]);
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOLER: 'none' }).databasePooler).to.equal(null);
    expect(loadConfig({}).databaseSessionUrl, 'the embedded database has none').to.equal(null);
  });

  it('refuses a DATABASE_POOLER it does not know, and a pooler or session URL without DATABASE_URL', () => {
    expect(configError({ DATABASE_URL: 'postgres://u@h/d', DATABASE_POOLER: 'transactions' }).message).to.match(/DATABASE_POOLER must be 'transaction'.*not 'transactions'/);
    expect(configError({ DATABASE_URL: 'postgres://u@h/d', DATABASE_POOLER: 'session' }).message).to.contain('DATABASE_POOLER');
    expect(configError({ DATABASE_POOLER: 'transaction' }).message).to.contain('DATABASE_POOLER needs DATABASE_URL');
    expect(configError({ DATABASE_SESSION_URL: 'postgres://u@h/d' }).message).to.contain('DATABASE_SESSION_URL needs DATABASE_URL');
    expect(configError({ DATABASE_URL: 'postgres://u@h/d', DATABASE_SESSION_URL: 'mysql://h/d' }).message).to.contain('DATABASE_SESSION_URL is not a postgres:// URL');
  });

  it('serving requires CURSOR_SECRET with DATABASE_URL; the commands do not', () => {
    const withoutSecret = loadConfig({ DATABASE_URL: 'postgres://u@h:5432/d' });
    expect(withoutSecret.cursorSecrets).to.equal(null);
    expect(() => checkServeConfig(withoutSecret)).to.throw(ConfigError, /CURSOR_SECRET is required with DATABASE_URL/);
    expect(() => checkServeConfig(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/d', CURSOR_SECRET: SECRET }))).to.not.throw();
    expect(() => checkServeConfig(loadConfig({}))).to.not.throw();
  });

  it('reads CURSOR_SECRET as a comma-separated list, the first to sign: a rotation', () => {
    const other = 'b'.repeat(40);
    expect(loadConfig({ CURSOR_SECRET: `${other},${SECRET}` }).cursorSecrets).to.deep.equal([other, SECRET]);
    expect(loadConfig({ CURSOR_SECRET: ` ${other} , ${SECRET} ` }).cursorSecrets).to.deep.equal([other, SECRET]);
    expect(configError({ CURSOR_SECRET: `${other},,${SECRET}` }).message).to.contain('empty secret');
    expect(configError({ CURSOR_SECRET: `${other},short` }).message).to.match(/each secret of the list must have at least 32 characters/);
  });

  it('refuses a CURSOR_SECRET shorter than 32 characters, with or without DATABASE_URL', () => {
    for (const env of [{ CURSOR_SECRET: 'short' }, { CURSOR_SECRET: 'a'.repeat(31) }, { DATABASE_URL: 'postgres://u@h/d', CURSOR_SECRET: 'a'.repeat(31) }]) {
      expect(configError(env).message).to.contain('CURSOR_SECRET');
    }
  });

  it('refuses an unknown LOG_LEVEL', () => {
    expect(configError({ LOG_LEVEL: 'loud' }).message).to.contain('LOG_LEVEL');
  });
});

describe('loadConfig: replicas and cluster workers', () => {
  const primary = 'postgres://u@primary:5432/d';

  it('reads DATABASE_REPLICA_URLS as a comma-separated list, spaces and empty entries ignored', () => {
    const config = loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: ' postgres://u@r1:5432/d, ,postgresql://u:pw@r2/d ' });
    expect(config.databaseReplicaUrls).to.deep.equal(['postgres://u@r1:5432/d', 'postgresql://u:pw@r2/d']);
  });

  it('has no replicas by default', () => {
    expect(loadConfig({ DATABASE_URL: primary }).databaseReplicaUrls).to.deep.equal([]);
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: '' }).databaseReplicaUrls).to.deep.equal([]);
  });

  it('refuses replicas without a primary', () => {
    expect(configError({ DATABASE_REPLICA_URLS: 'postgres://u@r1/d' }).message).to.match(/DATABASE_REPLICA_URLS needs DATABASE_URL/);
  });

  it('refuses an entry that is not a postgres URL, naming its position and never its value', () => {
    const error = configError({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: 'postgres://u@r1/d,mysql://u:secret@r2/d' });
    expect(error.message).to.match(/entry 2 is not a postgres:\/\/ URL/);
    expect(error.message).not.to.include('secret');
  });

  it('reads CLUSTER_WORKERS, null (one per CPU) when unset, and refuses 0', () => {
    expect(loadConfig({}).clusterWorkers).to.equal(null);
    expect(loadConfig({ CLUSTER_WORKERS: '3' }).clusterWorkers).to.equal(3);
    expect(configError({ CLUSTER_WORKERS: '0' }).message).to.match(/CLUSTER_WORKERS must be a whole number from 1 to 256/);
  });
});

describe('loadConfig: SYNC_RETENTION_DAYS', () => {
  it('defaults to 30 days, reads a whole number of days and refuses 0 or words', () => {
    expect(loadConfig({}).syncRetentionDays).to.equal(30);
    expect(loadConfig({ SYNC_RETENTION_DAYS: '7' }).syncRetentionDays).to.equal(7);
    for (const bad of ['0', 'week', '-1']) expect(() => loadConfig({ SYNC_RETENTION_DAYS: bad }), bad).to.throw(ConfigError, /SYNC_RETENTION_DAYS/);
  });
});

describe('loadConfig: CORS_ORIGINS', () => {
  it('allows no other origin by default', () => {
    expect(loadConfig({}).corsOrigins).to.deep.equal([]);
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).to.deep.equal([]);
  });

  it('reads `*` alone as every origin', () => {
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).to.equal('*');
    expect(loadConfig({ CORS_ORIGINS: ' * ' }).corsOrigins).to.equal('*');
  });

  it('reads a comma-separated list of origins, serialised as a browser sends them in Origin', () => {
    const config = loadConfig({ CORS_ORIGINS: ' https://App.Example.com:443 , http://localhost:5173,,http://[::1]:8080,https://bücher.example,https://app.example.com' });
    expect(config.corsOrigins).to.deep.equal(['https://app.example.com', 'http://localhost:5173', 'http://[::1]:8080', 'https://xn--bcher-kva.example']);
  });

  it('refuses what no browser would send as an origin, saying what to write instead', () => {
    const cases: [string, RegExp][] = [
      ['https://app.example.com/', /did you mean 'https:\/\/app\.example\.com'\?/],
      ['https://app.example.com/path', /did you mean 'https:\/\/app\.example\.com'\?/],
      ['https://app.example.com?x=1', /did you mean/],
      ['https://user:pw@app.example.com', /did you mean/],
      ['app.example.com', /is not an origin \(scheme:\/\/host\[:port\]/],
      ['null', /is not an origin/],
      ['file:///tmp/page.html', /only http and https/],
      ['https://*.example.com', /wildcard hosts are not supported/],
      ['*,https://app.example.com', /'\*' allows every origin and must stand alone/],
    ];
    for (const [value, message] of cases) {
      const error = configError({ CORS_ORIGINS: value });
      expect(error.message, value).to.match(/^CORS_ORIGINS/).and.to.match(message);
    }
  });
});
