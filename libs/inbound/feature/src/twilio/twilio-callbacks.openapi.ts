import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiHeader,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  type ApiResponseOptions,
  ApiTags,
} from '@nestjs/swagger';
import { errorBodySchema, openApi } from '@notify/platform';
import type { z } from 'zod';

// The documentation of Twilio's callback routes (/inbound/twilio/*), kept beside their controller.

const errorBody = { 'application/json': { schema: openApi(errorBodySchema) } };

/** Twilio's form parameters (a repeated key keeps every value); those read here are named. */
const twilioForm = {
  type: 'object',
  properties: Object.fromEntries(
    [
      'AccountSid',
      'MessageSid',
      'MessageStatus',
      'CallSid',
      'CallStatus',
      'From',
      'To',
      'Body',
      'ErrorCode',
    ].map((name) => [name, { type: 'string' }]),
  ),
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
};

/** Public routes that only Twilio can use: every request must carry Twilio's signature. */
export const ApiTwilioCallbacks = (): ClassDecorator =>
  applyDecorators(
    ApiTags('Provider callbacks'),
    ApiHeader({
      name: 'X-Twilio-Signature',
      required: true,
      description: "Twilio's signature of the URL and parameters, with the environment's auth token",
    }),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({ schema: twilioForm }),
    ApiResponse({
      status: 401,
      description: 'Not signed by Twilio for this environment (nothing is recorded)',
      content: errorBody,
    }),
    ApiResponse({
      status: 503,
      description: 'The service is overloaded; retry after Retry-After',
      content: errorBody,
    }),
  );

/** A messaging webhook's answer: TwiML, which Twilio carries out. */
export const TWIML_ANSWER: ApiResponseOptions = {
  status: 200,
  description: 'TwiML for Twilio',
  content: { 'text/xml': { schema: { type: 'string' } } },
};
/** A status callback's answer. */
export const RECORDED_ANSWER: ApiResponseOptions = { status: 204, description: 'Recorded' };

/** One callback: its query parameters (written into the callback URL by the sender) and its answer. */
export function ApiTwilioCallback(
  operationId: string,
  summary: string,
  query: z.ZodObject,
  answer: ApiResponseOptions,
): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary, operationId }),
    ...Object.entries(query.shape).map(([name, schema]) =>
      ApiQuery({ name, required: !schema.isOptional(), schema: openApi(schema) as never }),
    ),
    ApiResponse(answer),
  );
}
