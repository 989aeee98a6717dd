import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI 3.1 document of the API, generated from the controllers (committed as docs/openapi.json). */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Notify API')
    .setDescription(
      'Send a notification to one user over email, SMS, voice, push, web push, in-app or Slack; read every step of every delivery. Compatible with the pingram client.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key of the environment' })
    .addBasicAuth({
      type: 'http',
      scheme: 'basic',
      description: 'Browser client: base64(clientId:userId:hashedUserId)',
    })
    .build();
  return SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, method) => method });
}

/** Serves the document at /docs (UI) and /docs/json. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json', yamlDocumentUrl: 'docs/yaml' });
}
