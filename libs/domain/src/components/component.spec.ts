import { componentIdSchema, createComponentSchema, patchComponentSchema } from './component';
import { Limits } from '../validation/limits';

describe('component schemas', () => {
  it.each(['header', 'Footer_2', 'promo-banner'])('accept the id %s', (id) => {
    expect(componentIdSchema.safeParse(id).success).toBe(true);
  });

  it.each(['', '2cols', 'a.b', 'a/b', 'a b', '@partial-block', 'this', 'true', 'x'.repeat(65)])(
    'refuse the id %j (it would not be a plain partial name)',
    (id) => {
      expect(componentIdSchema.safeParse(id).success).toBe(false);
    },
  );

  it('need a name on create, and bound the HTML like a template', () => {
    expect(createComponentSchema.safeParse({ componentId: 'a' }).success).toBe(false);
    expect(createComponentSchema.safeParse({ componentId: 'a', name: 'A' }).success).toBe(true);
    expect(patchComponentSchema.safeParse({ html: 'x'.repeat(Limits.html + 1) }).success).toBe(false);
    expect(patchComponentSchema.safeParse({}).success).toBe(true);
  });
});
