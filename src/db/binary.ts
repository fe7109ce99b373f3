/**
 * SQL functions that read one value of a packed little-endian column (a blob on SQLite, bytea on
 * PostgreSQL) at index j: `f64_at(b, j)` a 64-bit float (null for NaN), `i32_at(b, j)` a 32-bit
 * integer, `u8_at(b, j)` a byte. On SQLite they are registered on each connection (db/index.ts);
 * on PostgreSQL, made in SQL by the migration that first needs them (PG_BINARY_FUNCTIONS).
 */

/** A Uint8Array's bytes as a Buffer (the same memory). */
export const bytes = (b: Uint8Array): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/** SQLite: name → the function (null in, null out). */
export const SQLITE_BINARY_FUNCTIONS: Record<string, (b: Uint8Array | null, j: number | bigint | null) => number | null> = {
  f64_at: (b, j) => {
    if (b === null || j === null) return null;
    const v = bytes(b).readDoubleLE(8 * Number(j));
    return Number.isNaN(v) ? null : v;
  },
  i32_at: (b, j) => (b === null || j === null ? null : bytes(b).readInt32LE(4 * Number(j))),
  u8_at: (b, j) => (b === null || j === null ? null : bytes(b)[Number(j)]),
};

/**
 * PostgreSQL: the same functions. A float is put together from its sign, exponent and mantissa
 * bits, each step exact in double precision (a power of two times a 53-bit mantissa).
 *
 * f64_at and i32_at are PL/pgSQL, not SQL: a SQL function whose body has a FROM clause (or is
 * called with arguments PostgreSQL will not copy into it, such as a subquery's value) is not
 * inlined, and PostgreSQL then plans its body again at every statement that calls it, some
 * 130 µs of the server's CPU a call on this machine; PL/pgSQL plans its expressions once per
 * connection (about 6 µs a call). u8_at is one expression, which PostgreSQL inlines.
 */
export const PG_BINARY_FUNCTIONS: readonly string[] = [
  `create or replace function u8_at(b bytea, j integer) returns integer language sql immutable strict parallel safe as 'select get_byte(b, j)'`,
  `create or replace function i32_at(b bytea, j integer) returns integer language plpgsql immutable strict parallel safe as $$
    declare v bigint := get_byte(b, 4 * j)::bigint | (get_byte(b, 4 * j + 1)::bigint << 8) | (get_byte(b, 4 * j + 2)::bigint << 16) | (get_byte(b, 4 * j + 3)::bigint << 24);
    begin
      return (case when v >= 2147483648 then v - 4294967296 else v end)::integer;
    end $$`,
  `create or replace function f64_at(b bytea, j integer) returns double precision language plpgsql immutable strict parallel safe as $$
    declare
      hi bigint := get_byte(b, 8 * j + 4)::bigint | (get_byte(b, 8 * j + 5)::bigint << 8) | (get_byte(b, 8 * j + 6)::bigint << 16) | (get_byte(b, 8 * j + 7)::bigint << 24);
      lo bigint := get_byte(b, 8 * j)::bigint | (get_byte(b, 8 * j + 1)::bigint << 8) | (get_byte(b, 8 * j + 2)::bigint << 16) | (get_byte(b, 8 * j + 3)::bigint << 24);
      s bigint := hi >> 31;
      e bigint := (hi >> 20) & 2047;
      m bigint := ((hi & 1048575) << 32) | lo;
    begin
      return case
        when e = 2047 then case when m = 0 then (case when s = 1 then '-Infinity' else 'Infinity' end)::double precision end
        when e = 0 then (1 - 2 * s) * (m::double precision / 4503599627370496) * (2::double precision ^ -1022)
        else (1 - 2 * s) * (1 + m::double precision / 4503599627370496) * (2::double precision ^ (e - 1023)) end;
    end $$`,
];
