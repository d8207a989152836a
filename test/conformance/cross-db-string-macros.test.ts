import { beforeAll, expect, it } from 'vitest';
import type { ConformanceProject } from '../support/conformance-project.js';
import { buildCrossDbProject, expectActualEqualsExpected } from '../support/cross-db-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 14): dbt's string macros, as mini-dbt ships them
 * in the `dbt` package. Modelled on dbt-tests-adapter's utils/ tests
 * (test_concat, test_hash, test_length, test_position, test_replace,
 * test_right, test_split_part, test_string_literal, test_escape_single_quotes):
 * their seed rows and expected values, each model built unqualified and as
 * dbt.<macro>.
 *
 * Translated: dbt's BaseUtils gives the project a `replace_empty` macro; here
 * the project has no macros, so its CASE is written out. A quoted empty CSV
 * field loads as NULL (as in dbt's seeds), which the fixtures coalesce as dbt's
 * do. test_escape_single_quotes has a backslash variant for warehouses that
 * escape with `\'`; SQLite doubles the quote, so only the quote variant applies.
 * Beyond dbt's rows (marked "ours"): split_part past the last part, with a
 * delimiter longer than one character and with an empty one; right() with a
 * length over the string's and a negative one (PostgreSQL's meaning).
 */
const MACROS = ['concat', 'hash', 'length', 'position', 'replace', 'right', 'split_part', 'string_literal', 'escape_single_quotes'];

const emptyToBlank = (column: string) => `case when ${column} = 'EMPTY' then '' else ${column} end`;

const CONCAT = `
with seed_data as (
    select * from {{ ref('data_concat') }}
),
data as (
    select ${emptyToBlank('input_1')} as input_1, ${emptyToBlank('input_2')} as input_2, ${emptyToBlank('output')} as output
    from seed_data
)
select {{ concat(['input_1', 'input_2']) }} as actual, output as expected
from data
`;

const HASH = `
with seed_data as (
    select * from {{ ref('data_hash') }}
),
data as (
    select ${emptyToBlank('input_1')} as input_1, ${emptyToBlank('output')} as output
    from seed_data
)
select {{ hash('input_1') }} as actual, output as expected
from data
`;

const LENGTH = `
with data as (
    select * from {{ ref('data_length') }}
)
select {{ length('expression') }} as actual, output as expected
from data
`;

const POSITION = `
with data as (
    select * from {{ ref('data_position') }}
)
select {{ position('substring_text', 'string_text') }} as actual, result as expected
from data
`;

const REPLACE = `
with data as (
    select *, coalesce(search_chars, '') as old_chars, coalesce(replace_chars, '') as new_chars
    from {{ ref('data_replace') }}
)
select {{ replace('string_text', 'old_chars', 'new_chars') }} as actual, result as expected
from data
`;

const RIGHT = `
with data as (
    select * from {{ ref('data_right') }}
)
select {{ right('string_text', 'length_expression') }} as actual, coalesce(output, '') as expected
from data
union all select {{ right("'abc'", 5) }}, 'abc'
union all select {{ right("'abcdef'", -2) }}, 'cdef'
union all select {{ right('null', 2) }}, null
`;

const SPLIT_PART = `
with data as (
    select * from {{ ref('data_split_part') }}
)
select {{ split_part('parts', 'split_on', 1) }} as actual, result_1 as expected from data
union all
select {{ split_part('parts', 'split_on', 2) }} as actual, result_2 as expected from data
union all
select {{ split_part('parts', 'split_on', 3) }} as actual, result_3 as expected from data
union all
select {{ split_part('parts', 'split_on', -1) }} as actual, result_4 as expected from data
union all select {{ split_part("'a|b|c'", "'|'", 4) }}, ''
union all select {{ split_part("'a|b|c'", "'|'", -3) }}, 'a'
union all select {{ split_part("'a|b|c'", "'|'", -4) }}, ''
union all select {{ split_part("'a, b, , c'", "', '", 3) }}, ''
union all select {{ split_part("'a, b, , c'", "', '", 4) }}, 'c'
union all select {{ split_part("'abc'", "''", 1) }}, 'abc'
union all select {{ split_part("''", "'|'", 1) }}, ''
union all select {{ split_part("'a|b'", 'null', 1) }}, null
`;

const STRING_LITERAL = `
select {{ string_literal("abc") }} as actual, 'abc' as expected union all
select {{ string_literal("1") }} as actual, '1' as expected union all
select {{ string_literal("") }} as actual, '' as expected union all
select {{ string_literal(none) }} as actual, 'None' as expected
`;

const ESCAPE_SINGLE_QUOTES = `
select
  '{{ escape_single_quotes("they're") }}' as actual,
  'they''re' as expected,
  {{ length(string_literal(escape_single_quotes("they're"))) }} as actual_length,
  7 as expected_length
union all
select
  '{{ escape_single_quotes("they are") }}' as actual,
  'they are' as expected,
  {{ length(string_literal(escape_single_quotes("they are"))) }} as actual_length,
  8 as expected_length
`;

describeEachEngine("dbt's string macros (dbt-tests-adapter utils/)", (engine) => {
  let project: ConformanceProject;
  beforeAll(() => {
    project = buildCrossDbProject({
      macros: MACROS,
      seeds: {
        data_concat: 'input_1,input_2,output\na,b,ab\na,EMPTY,a\nEMPTY,b,b\nEMPTY,EMPTY,EMPTY\n',
        data_hash: [
          'input_1,output',
          'ab,187ef4436122d1cc2f40dc2b92f0eba0',
          'a,0cc175b9c0f1b6a831c399e269772661',
          '1,c4ca4238a0b923820dcc509a6f75849b',
          'EMPTY,d41d8cd98f00b204e9800998ecf8427e',
          '',
        ].join('\n'),
        data_length: 'expression,output\nabcdef,6\nfishtown,8\ndecember,8\nwww.google.com/path,19\n',
        data_position: 'substring_text,string_text,result\ndef,abcdef,4\nland,earth,0\ntown,fishtown,5\nember,december,4\n',
        data_replace: 'string_text,search_chars,replace_chars,result\na,a,b,b\nhttp://google.com,http://,"",google.com\n',
        data_right: 'string_text,length_expression,output\nabcdef,3,def\nfishtown,4,town\ndecember,5,ember\ndecember,0,\n',
        data_split_part: 'parts,split_on,result_1,result_2,result_3,result_4\na|b|c,|,a,b,c,c\n1|2|3,|,1,2,3,3\n,|,,,,\n',
      },
      models: {
        test_concat: CONCAT,
        test_hash: HASH,
        test_length: LENGTH,
        test_position: POSITION,
        test_replace: REPLACE,
        test_right: RIGHT,
        test_split_part: SPLIT_PART,
        test_string_literal: STRING_LITERAL,
        test_escape_single_quotes: ESCAPE_SINGLE_QUOTES,
      },
    }, engine);
  });

  it("concat: '||', empty strings kept (test_concat)", () => {
    expect(expectActualEqualsExpected(project, 'test_concat')).toHaveLength(4);
  });

  it("hash: md5 as lowercase hex, of '' too (test_hash)", () => {
    expect(expectActualEqualsExpected(project, 'test_hash')).toHaveLength(4);
  });

  it('length (test_length)', () => {
    expect(expectActualEqualsExpected(project, 'test_length')).toHaveLength(4);
  });

  it('position: 1-based, 0 when absent (test_position)', () => {
    expect(expectActualEqualsExpected(project, 'test_position')).toHaveLength(4);
  });

  it("replace: with '' too (test_replace)", () => {
    expect(expectActualEqualsExpected(project, 'test_replace')).toHaveLength(2);
  });

  it("right: the last n characters, '' for 0 (test_right); more than there are, negative, NULL (ours)", () => {
    expect(expectActualEqualsExpected(project, 'test_right')).toHaveLength(7);
  });

  it('split_part: parts 1 to 3 and -1, NULL for NULL (test_split_part); past the end, long and empty delimiters (ours)', () => {
    expect(expectActualEqualsExpected(project, 'test_split_part')).toHaveLength(20);
  });

  it("string_literal: quoted, None for none (test_string_literal)", () => {
    expect(expectActualEqualsExpected(project, 'test_string_literal')).toHaveLength(4);
  });

  it("escape_single_quotes: doubled quotes, the literal's length (test_escape_single_quotes)", () => {
    expectActualEqualsExpected(project, 'test_escape_single_quotes');
    expect(expectActualEqualsExpected(project, 'test_escape_single_quotes', 'actual_length', 'expected_length')).toHaveLength(2);
  });
});
