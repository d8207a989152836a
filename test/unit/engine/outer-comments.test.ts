import { describe, expect, it } from 'vitest';
import { outerComments } from '../../../src/engine/outer-comments.js';

describe('outerComments', () => {
  it('splits the comments before and after a statement from it', () => {
    expect(outerComments('/* a */\ndrop table x')).toEqual({ lead: '/* a */\n', core: 'drop table x', trail: '' });
    expect(outerComments('drop view v cascade\n/* {"app": "dbt"} */;')).toEqual({ lead: '', core: 'drop view v cascade', trail: '\n/* {"app": "dbt"} */;' });
    expect(outerComments('drop view v;')).toEqual({ lead: '', core: 'drop view v', trail: ';' });
    expect(outerComments('drop view v cascade\n/* c */')).toEqual({ lead: '', core: 'drop view v cascade', trail: '\n/* c */' });
    expect(outerComments('  -- x\n/* a */ select 1 /* b */ \n')).toEqual({ lead: '  -- x\n/* a */ ', core: 'select 1', trail: ' /* b */ \n' });
  });

  it('keeps a statement without comments whole', () => {
    expect(outerComments('select 1')).toEqual({ lead: '', core: 'select 1', trail: '' });
    expect(outerComments('')).toEqual({ lead: '', core: '', trail: '' });
  });
});
