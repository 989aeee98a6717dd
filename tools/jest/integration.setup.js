// Integration tests talk to real backends started by tools/infra; give them room.
jest.setTimeout(60_000);
