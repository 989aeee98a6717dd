import type { OpenAPIObject } from '@nestjs/swagger';
import { documentBodyLimit, hoistNamedSchemas } from './openapi.document';

const documentWith = (paths: Record<string, unknown>): OpenAPIObject =>
  ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths }) as OpenAPIObject;

const named = (name: string, schema: object) => ({
  $ref: `#/$defs/${name}`,
  $defs: { [name]: schema },
});

describe('hoistNamedSchemas', () => {
  it('moves each named schema to components.schemas once and points every $ref there', () => {
    const user = { type: 'object', properties: { id: { type: 'string' } } };
    const document = documentWith({
      '/a': {
        get: { responses: { 200: { content: { 'application/json': { schema: named('User', user) } } } } },
      },
      '/b': {
        get: {
          responses: {
            200: {
              content: {
                'application/json': {
                  schema: { type: 'array', items: { $ref: '#/$defs/User' }, $defs: { User: user } },
                },
              },
            },
          },
        },
      },
    });
    hoistNamedSchemas(document);
    expect(document.components?.schemas).toEqual({ User: user });
    const text = JSON.stringify(document.paths);
    expect(text).not.toContain('$defs');
    expect(text.match(/#\/components\/schemas\/User/g)).toHaveLength(2);
  });

  it('refuses two different shapes under one name', () => {
    const document = documentWith({
      '/a': { get: { responses: { 200: { schema: named('User', { type: 'object' }) } } } },
      '/b': { get: { responses: { 200: { schema: named('User', { type: 'string' }) } } } },
    });
    expect(() => hoistNamedSchemas(document)).toThrow('two different schemas are named User');
  });
});

describe('documentBodyLimit', () => {
  it('adds 413 to operations that take a body and to no other', () => {
    const document = documentWith({
      '/x': {
        post: { requestBody: { content: {} }, responses: { 200: { description: 'ok' } } },
        delete: { responses: { 200: { description: 'ok' } } },
      },
    });
    documentBodyLimit(document);
    const item = document.paths['/x'];
    expect(Object.keys(item?.post?.responses ?? {})).toEqual(['200', '413']);
    expect(Object.keys(item?.delete?.responses ?? {})).toEqual(['200']);
  });
});
