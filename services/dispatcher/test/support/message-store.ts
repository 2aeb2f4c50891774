import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import { createAccountsRepository, createDb, createMessageWritesRepository, type Db, type MessageWritesRepository } from '@switchboard/store';

/** The store side of the processor tests: a private database, one account, and the dispatcher's message writes on it. */
export interface MessageStore {
  database: TestDatabase;
  db: Db;
  store: MessageWritesRepository;
  accountId: string;
  /** Closes the pool and drops the database. */
  close(): Promise<void>;
}

export async function openMessageStore(account: string, poolSize = 4): Promise<MessageStore> {
  const database = await createTestDatabase();
  const db = createDb({ url: database.url, poolSize });
  const accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure(account)).id;
  return {
    database,
    db,
    store: createMessageWritesRepository(db),
    accountId,
    close: async () => {
      await db.close();
      await database.drop();
    },
  };
}
