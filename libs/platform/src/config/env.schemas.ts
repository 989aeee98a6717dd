import { z } from 'zod';

/** Reusable variable shapes: each message says what a valid value looks like. */
export const envInt = (min: number, max: number) =>
  z.coerce
    .number({ message: `expected an integer between ${min} and ${max}` })
    .int({ message: `expected an integer between ${min} and ${max}` })
    .min(min, { message: `expected an integer between ${min} and ${max}` })
    .max(max, { message: `expected an integer between ${min} and ${max}` });

export const envPort = envInt(0, 65535);

export const envBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const hostPort = /^[A-Za-z0-9.-]+:\d{1,5}$/;
/** A comma-separated broker list such as `kafka-0:9092,kafka-1:9092`. */
export const envHostPortList = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()))
  .refine((list) => list.length > 0 && list.every((entry) => hostPort.test(entry)), {
    message: 'expected a comma-separated list of host:port',
  });

export const envUrl = (protocols: readonly string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    { message: `expected a URL with scheme ${protocols.join(' or ')}` },
  );
