import { z } from 'zod';
import { InvalidRequestError, NotFoundError, PayloadTooLargeError, ProviderError } from '@notify/util';
import { toErrorResponse } from './error-body';

const errorId = () => 'err-1';

describe('toErrorResponse', () => {
  it('maps domain errors to their status with code, message and fix', () => {
    const response = toErrorResponse(
      new InvalidRequestError({
        code: 'INVALID_SCHEDULE_FORMAT',
        message: 'bad schedule',
        fix: 'use ISO 8601',
      }),
      'req-1',
      errorId,
    );
    expect(response).toEqual({
      status: 400,
      body: {
        trackingId: 'req-1',
        error: { code: 'INVALID_SCHEDULE_FORMAT', message: 'bad schedule', fix: 'use ISO 8601' },
      },
    });
  });

  it.each([
    [new NotFoundError({ code: 'NOT_FOUND', message: 'x' }), 404],
    [new PayloadTooLargeError({ code: 'ATTACHMENT_TOO_LARGE', message: 'x' }), 413],
    [new ProviderError({ code: 'PROVIDER_ERROR', message: 'x', provider: 'smtp', providerCode: '550' }), 502],
  ])('maps %p to %i', (error, status) => {
    expect(toErrorResponse(error, 'req', errorId).status).toBe(status);
  });

  it('keeps provider fields on provider errors', () => {
    const { body } = toErrorResponse(
      new ProviderError({
        code: 'PROVIDER_ERROR',
        message: 'rejected',
        provider: 'twilio',
        providerCode: '21211',
      }),
      'req',
      errorId,
    );
    expect(body.error).toEqual({
      code: 'PROVIDER_ERROR',
      message: 'rejected',
      provider: 'twilio',
      providerCode: '21211',
    });
  });

  it('turns schema failures into a 400 naming each field', () => {
    const result = z.object({ type: z.string(), to: z.object({ id: z.string() }) }).safeParse({ to: {} });
    if (result.success) throw new Error('expected a validation failure');
    const response = toErrorResponse(result.error, 'req', errorId);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(/^type: .*; to\.id: /);
  });

  it('hides internals of unexpected errors behind an error id', () => {
    const cause = new Error('connection string mongodb://user:secret@db');
    const response = toErrorResponse(cause, 'req', errorId);
    expect(response.status).toBe(500);
    expect(response.body.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(response.body)).not.toContain('secret');
    expect(response.body.error.message).toContain('err-1');
    expect(response.internal).toEqual({ errorId: 'err-1', cause });
  });

  it('answers 503 (retry) when a backend is unavailable, without its details', () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:27017'), { code: 'ECONNREFUSED' });
    const response = toErrorResponse(outage, 'req', errorId);
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('BACKEND_UNAVAILABLE');
    expect(JSON.stringify(response.body)).not.toContain('10.0.0.5');
    expect(response.headers).toEqual({ 'retry-after': '5' });
  });

  it('maps transport errors that carry a 4xx status', () => {
    const response = toErrorResponse(
      { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE', message: 'Request body is too large' },
      'req',
      errorId,
    );
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
