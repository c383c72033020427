import type { DataSource } from 'typeorm';

export interface OperatorSessionRow {
  id_hash: string;
  csrf_token: string;
  client: string;
  created_at: Date;
  expires_at: Date;
}

/** `library.operator_sessions`: one row per signed-in operator session, keyed by the SHA-256 of its secret. */
export class OperatorSessionStore {
  constructor(private readonly ds: DataSource) {}

  async create(s: { idHash: string; csrfToken: string; client: string; expiresAt: Date }): Promise<void> {
    await this.ds.query(`INSERT INTO library.operator_sessions (id_hash, csrf_token, client, expires_at) VALUES ($1, $2, $3, $4)`, [s.idHash, s.csrfToken, s.client, s.expiresAt]);
  }

  /** The live session with this hash (an expired one is not). */
  async find(idHash: string, now: Date = new Date()): Promise<OperatorSessionRow | null> {
    const rows = (await this.ds.query(`SELECT * FROM library.operator_sessions WHERE id_hash = $1 AND expires_at > $2`, [idHash, now])) as OperatorSessionRow[];
    return rows[0] ?? null;
  }

  async delete(idHash: string): Promise<boolean> {
    const [, deleted] = (await this.ds.query(`DELETE FROM library.operator_sessions WHERE id_hash = $1`, [idHash])) as [unknown[], number];
    return deleted > 0;
  }

  /** Drops sessions that ended before `before`. */
  async prune(before: Date): Promise<number> {
    const [, deleted] = (await this.ds.query(`DELETE FROM library.operator_sessions WHERE expires_at < $1`, [before])) as [unknown[], number];
    return deleted;
  }
}
