// Stands in for the "server-only" package in tests: the real one throws outside React Server Components.
export {};
