import { ServiceUnavailableError } from '@notify/util';
import { isTransientError } from './transient';

const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });

describe('isTransientError', () => {
  it.each([
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { code: 'ECONNREFUSED' })],
    [named('MongoServerSelectionError', 'Server selection timed out after 5000 ms')],
    [named('MongoNetworkError')],
    [new Error('Operation `users.findOne()` buffering timed out after 10000ms')],
    [named('MaxRetriesPerRequestError')],
    [new Error('Connection is closed.')],
    [Object.assign(new Error('LOADING Redis is loading the dataset in memory'), { name: 'ReplyError' })],
    [Object.assign(new Error('The group is rebalancing'), { name: 'KafkaJSProtocolError', retriable: true })],
    [new ServiceUnavailableError({ code: 'X', message: 'down' })],
    [new Error('wrapped', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) })],
    [{ hasErrorLabel: (label: string) => label === 'RetryableWriteError', message: 'not primary' }],
  ])('%p is transient', (error) => expect(isTransientError(error)).toBe(true));

  it.each([
    [new TypeError("Cannot read properties of undefined (reading 'x')")],
    [named('ZodError', 'invalid')],
    [Object.assign(new Error('E11000 duplicate key'), { name: 'MongoServerError', code: 11000 })],
    [Object.assign(new Error('not retriable'), { name: 'KafkaJSProtocolError', retriable: false })],
    ['a string'],
    [undefined],
  ])('%p is not', (error) => expect(isTransientError(error)).toBe(false));
});
