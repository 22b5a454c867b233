"""The stand-in's contract checks themselves (bot/testing/fakediscord/contract.py): its fast validator says
what the spec's own schema says, and its refusals have Discord's shape and wording.

The validator rewrites the spec's unions into switches on their ``type`` (a few times faster); a rewrite that
let a body through that Discord refuses, or refused one Discord takes, would make every other test of the
suite believe the wrong thing. So bodies drawn at random are judged both ways: by the rewritten validator and
by ``jsonschema`` on the spec's schema as published.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from bot.testing.fakediscord import contract

ROUTES = [
    ("POST", "/channels/1/messages"),
    ("PATCH", "/channels/1/messages/2"),
    ("POST", "/webhooks/1/tok"),
    ("POST", "/interactions/1/tok/callback"),
    ("PATCH", "/webhooks/1/tok/messages/@original"),
]


def published_validator(method: str, path: str) -> Draft202012Validator:
    """``jsonschema`` on the route's schema exactly as the spec publishes it (no rewriting)."""
    template = contract.route_template(method, path)
    assert template is not None, path
    pointer = "/".join(
        part.replace("~", "~0").replace("/", "~1")
        for part in (
            "paths",
            template,
            method.lower(),
            "requestBody",
            "content",
            "application/json",
            "schema",
        )
    )
    return Draft202012Validator(
        {"$ref": f"{contract.SPEC_URI}#/{quote(pointer)}"}, registry=contract._registry()
    )


PUBLISHED = {route: published_validator(*route) for route in ROUTES}

words = st.text(alphabet="ab <@&>*", max_size=6)
lengths = st.sampled_from([0, 1, 80, 81, 100, 101, 256, 257])
sized = st.builds(lambda n, c: c * n, lengths, st.sampled_from("xé"))
maybe = st.one_of(st.none(), words, sized)
button = st.fixed_dictionaries(
    {"type": st.just(2), "style": st.integers(0, 7)},
    optional={
        "label": maybe,
        "custom_id": maybe,
        "url": st.sampled_from(["https://example.org", "nope"]),
        "disabled": st.booleans(),
        "emoji": st.one_of(st.none(), st.just({"name": "🗳️"})),
    },
)
option = st.fixed_dictionaries({"label": maybe, "value": maybe}, optional={"default": st.booleans()})
select = st.fixed_dictionaries(
    {"type": st.sampled_from([3, 5, 6, 7, 8])},
    optional={
        "custom_id": maybe,
        "options": st.lists(option, max_size=3),
        "placeholder": maybe,
        "min_values": st.integers(-1, 26),
        "max_values": st.integers(0, 26),
    },
)
row = st.fixed_dictionaries(
    {"type": st.sampled_from([1, 1, 1, 7, 99])},
    optional={"components": st.lists(st.one_of(button, select), max_size=6)},
)
field = st.fixed_dictionaries({"name": maybe, "value": maybe}, optional={"inline": st.booleans()})
embed = st.fixed_dictionaries(
    {},
    optional={
        "title": maybe,
        "description": maybe,
        "colour": st.integers(),
        "color": st.integers(-1, 1 << 25),
        "fields": st.lists(field, max_size=3),
        "footer": st.fixed_dictionaries({"text": maybe}),
        "image": st.fixed_dictionaries({"url": st.sampled_from(["attachment://a.png", 5])}),
    },
)
message = st.fixed_dictionaries(
    {},
    optional={
        "content": st.one_of(maybe, st.builds(lambda n: "x" * n, st.sampled_from([2000, 4000, 4001]))),
        "embeds": st.lists(embed, max_size=2),
        "components": st.lists(row, max_size=6),
        "allowed_mentions": st.fixed_dictionaries(
            {},
            optional={
                "parse": st.lists(st.sampled_from(["users", "roles", "everyone", "nobody"]), max_size=2),
                "users": st.lists(st.sampled_from(["1", "x"]), max_size=2),
            },
        ),  # numbers: see the last test
        "flags": st.sampled_from([0, 64, 4096, "64"]),
        "tts": st.booleans(),
    },
)


def body_for(method: str, path: str, data: dict[str, Any], kind: int) -> dict[str, Any]:
    return {"type": kind, "data": data} if path.startswith("/interactions/") else data


@given(st.sampled_from(ROUTES), message, st.sampled_from([4, 7, 5, 9]))
def test_the_fast_validator_judges_every_body_as_the_published_schema_does(route, data, kind) -> None:
    method, path = route
    body = body_for(method, path, data, kind)
    template = contract.route_template(method, path)
    assert template is not None
    fast_says_valid = not list(contract.validator_for(method, template).iter_errors(body))
    assert fast_says_valid == PUBLISHED[route].is_valid(body)
    assert (contract.schema_problems(method, path, body) == []) == fast_says_valid


def test_a_refusal_names_the_field_with_discords_code_and_words() -> None:
    too_long = {
        "content": "x" * 2001,
        "embeds": [{"title": "t" * 257}],
        "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "x" * 81, "custom_id": "b"}]}
        ],
    }
    problems = contract.problems_of("POST", "/channels/1/messages", too_long)
    assert sorted(problems) == sorted(
        [
            (("content",), "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."),
            (("embeds", 0, "title"), "BASE_TYPE_MAX_LENGTH", "Must be 256 or fewer in length."),
            (
                ("components", 0, "components", 0, "label"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 80 or fewer in length.",
            ),
        ]
    ), problems
    assert contract.error_tree(problems)["components"]["0"]["components"]["0"]["label"] == {
        "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 80 or fewer in length."}]
    }


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            {
                "content": "a",
                "components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": []}]}],
            },
            (
                ("components", 0, "components", 0, "options"),
                "BASE_TYPE_MIN_LENGTH",
                "Must be 1 or more in length.",
            ),
        ),
        (
            {
                "content": "a",
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": "l", "value": str(i)} for i in range(26)],
                            }
                        ],
                    }
                ],
            },
            (
                ("components", 0, "components", 0, "options"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ),
        ),
        (
            {
                "content": "a",
                "components": [{"type": 1, "components": [{"type": 2, "style": 9, "custom_id": "b"}]}],
            },
            (
                ("components", 0, "components", 0, "style"),
                "BASE_TYPE_CHOICES",
                "9 is not one of [1, 2, 3, 4, 5, 6]",
            ),
        ),
        (
            {"embeds": [{"title": 5}]},
            (("embeds", 0, "title"), "BASE_TYPE_BAD_TYPE", "5 is not of type 'string', 'null'"),
        ),
        (
            {
                "content": "a",
                "components": [
                    {"type": 1, "components": [{"type": 3, "options": [{"label": "l", "value": "v"}]}]}
                ],
            },
            (("components", 0, "components", 0, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"),
        ),
        (
            {
                "content": "a",
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": "l", "value": "v"}],
                                "max_values": 26,
                            }
                        ],
                    }
                ],
            },
            (
                ("components", 0, "components", 0, "max_values"),
                "NUMBER_TYPE_MAX",
                "26 is greater than the maximum of 25",
            ),
        ),
    ],
)
def test_each_kind_of_schema_refusal_comes_back_as_discord_words_it(body, expected) -> None:
    assert contract.problems_of("POST", "/channels/1/messages", body) == [expected]


def test_a_snowflake_sent_as_a_json_number_is_taken_as_discord_takes_it() -> None:
    """The one place the stand-in is wider than the published schema, on purpose: Discord takes ids as JSON
    numbers too, and discord.py sends some that way."""
    body = {"content": "a", "allowed_mentions": {"parse": [], "users": [2]}}
    assert not PUBLISHED[("POST", "/channels/1/messages")].is_valid(body)
    assert contract.problems_of("POST", "/channels/1/messages", body) == []
    assert (
        contract.problems_of(
            "POST", "/channels/1/messages", {"content": "a", "allowed_mentions": {"users": [True]}}
        )
        != []
    )


# -- command syncs: the rules the schema can't say --------------------------------------------------------


def chat(name: str = "ping", description: str = "Pong", **more: Any) -> dict[str, Any]:
    return {"type": 1, "name": name, "description": description, **more}


def option(name: str, *, required: bool = False, kind: int = 3, **more: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "description": "d", "required": required, **more}


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        (
            [chat("Ping")],
            [((0, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid: 'Ping'")],
        ),
        (
            [chat("pi!ng")],
            [((0, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid: 'pi!ng'")],
        ),
        ([chat("a-b_c'd"), chat("नमस्ते"), chat("สวัสดี"), chat("ピン")], []),  # Discord's alphabet, and scripts
        (
            [chat(name_localizations={"ja": "Pin"})],
            [
                (
                    (0, "name_localizations", "ja"),
                    "APPLICATION_COMMAND_INVALID_NAME",
                    "Command name is invalid: 'Pin'",
                )
            ],
        ),
        (
            [chat(description_localizations={"xx": "d"})],
            [((0, "description_localizations", "xx"), "LOCALE_INVALID", "Invalid locale 'xx'")],
        ),
        (
            [
                chat(
                    options=[
                        option(
                            "o",
                            choices=[{"name": "Upper Case", "value": "v", "name_localizations": {"xx": "a"}}],
                        )
                    ]
                )
            ],
            [
                (
                    (0, "options", 0, "choices", 0, "name_localizations", "xx"),
                    "LOCALE_INVALID",
                    "Invalid locale 'xx'",
                )
            ],
        ),
        (
            [chat(description="")],
            [((0, "description"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")],
        ),
        ([{"type": 2, "name": "look"}], []),  # a user command has no description
        ([chat(options=[option("o", choices=[{"name": "c", "value": "v" * 100}])])], []),
        (
            [chat(options=[option("o", choices=[{"name": "c", "value": "v" * 101}])])],
            [
                (
                    (0, "options", 0, "choices", 0, "value"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                )
            ],
        ),
        (
            [chat(options=[option("o", autocomplete=True, choices=[{"name": "c", "value": "v"}])])],
            [
                (
                    (0, "options", 0, "autocomplete"),
                    "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES",
                    "Autocomplete cannot be enabled on an option that has choices",
                )
            ],
        ),
        (
            [chat(options=[option("a"), option("b", required=True)])],
            [
                (
                    (0, "options", 1, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
            ],
        ),
        ([chat(options=[option("a", required=True), option("b")])], []),
        (
            [chat(options=[option("s", kind=1), option("t", kind=2, required=True)])],
            [],
        ),  # subcommands: no order
        (
            [chat(options=[option("a"), option("a")])],
            [
                (
                    (0, "options", 1, "name"),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    "Option name 'a' is already used",
                )
            ],
        ),
        ([chat("same"), {"type": 2, "name": "same"}], []),  # one name, two kinds of command
        (
            [chat("same"), chat("same")],
            [
                (
                    (1, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "Application command names must be unique: 'same'",
                )
            ],
        ),
        ([chat(f"c{i}") for i in range(100)] + [{"type": 3, "name": "m"}], []),
        (
            [chat(f"c{i}") for i in range(101)],
            [((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")],
        ),
        ("not a list", []),
    ],
)
def test_a_command_sync_is_refused_where_discord_refuses_it_and_only_there(commands, expected) -> None:
    assert contract.commands_problems(commands) == expected
    for route in ("/applications/1/commands", "/applications/1/guilds/2/commands"):
        assert set(expected) <= set(contract.cross_field_problems("PUT", route, commands)), route


def test_a_commands_size_counts_each_texts_longest_localisation() -> None:
    command = chat(
        "ab",
        "cde",
        name_localizations={"ja": "abcd", "ko": "a"},
        options=[option("x", choices=[{"name": "n", "value": "vvv", "name_localizations": {"ja": "nn"}}])],
    )
    # 4 (the longest name) + 3 + the option's 1 + 1 ("d") + its choice's 2 (longest name) + 3 (value)
    assert contract.command_length(command) == 14
    assert contract.commands_problems([chat(description="d" * 7995)]) == []
    assert contract.commands_problems([chat("ping", "d" * 7997)]) == [
        ((0,), "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
    ]


# -- the rewriting itself: each kind of union becomes what the docstring says, and nothing else does -------
# The random bodies above judge only "valid or not", and a union left unrewritten judges the same (just
# slower, with vaguer errors): these pin the rewriting's exact output, on small schemas shaped like the spec's.

TAGGED_1_2 = {"type": "object", "required": ["type"], "properties": {"type": {"enum": [1, 2]}}}
TAGGED_3 = {"type": "object", "required": ["type"], "properties": {"type": {"const": 3}}}
SNOWFLAKE_REF = "#/components/schemas/SnowflakeType"


def rewritten(schema: Any) -> Any:
    return contract._Simplifier().node(schema)


def snowflake() -> dict[str, Any]:
    """The spec's SnowflakeType, widened to JSON numbers as the stand-in takes them."""
    return {**contract.spec()["components"]["schemas"]["SnowflakeType"], "type": ["string", "integer"]}


@pytest.mark.parametrize("key", ["oneOf", "anyOf"])
def test_a_union_of_consts_becomes_an_enum_keeping_its_notes_and_dropping_discords_union_tag(key) -> None:
    schema = {"description": "d", "x-discord-union": "tag", key: [{"const": 1, "title": "A"}, {"const": 2}]}
    assert rewritten(schema) == {"description": "d", "enum": [1, 2]}


def test_a_nullable_union_becomes_if_null_else_the_one_other_branch() -> None:
    schema = {"description": "d", "oneOf": [{"type": "null"}, {"type": "string", "maxLength": 5}]}
    assert rewritten(schema) == {
        "description": "d",
        "if": {"type": "null"},
        "else": {"type": "string", "maxLength": 5},
    }


def test_a_union_told_apart_by_type_becomes_a_switch_with_a_guard_beside_the_schemas_own_all_of() -> None:
    schema = {"anyOf": [TAGGED_1_2, TAGGED_3], "allOf": [{"title": "kept"}]}
    guard = {"type": "object", "properties": {"type": {"enum": [1, 2, 3]}}, "required": ["type"]}
    assert rewritten(schema) == {
        "allOf": [{"title": "kept"}, guard],
        contract.SWITCH: {"1": TAGGED_1_2, "2": TAGGED_1_2, "3": TAGGED_3},
    }


@pytest.mark.parametrize(
    "branches",
    [
        [TAGGED_1_2, {"type": "object"}],  # a branch without a type tag
        [{"type": "null"}, TAGGED_1_2, TAGGED_3],  # nullable, but more than one other branch
        [TAGGED_1_2, {**TAGGED_3, "properties": {"type": {"const": 2}}}],  # two branches claim type 2
        [{"type": "null"}],  # nothing but null
        [{"type": "string"}, {"type": "integer"}],  # untagged: the nonce's kind of union
    ],
)
def test_a_union_that_cannot_be_told_apart_by_type_is_left_as_the_spec_wrote_it(branches) -> None:
    schema = {"oneOf": branches}
    assert rewritten(schema) == schema


@pytest.mark.parametrize(
    ("branch", "tag"),
    [
        (TAGGED_1_2, [1, 2]),
        (TAGGED_3, [3]),
        ({"required": ["type"], "properties": {"type": {"type": "integer"}}}, None),  # typed, untagged
        ({"required": ["name"], "properties": {"type": {"const": 1}}}, None),  # type not required
        ({"required": None, "properties": {"type": {"const": 1}}}, None),
        ({"required": ["type"], "properties": None}, None),
        ({"required": ["type"], "properties": {"type": None}}, None),
        ({"type": "null"}, None),
        ("not a schema", None),
    ],
)
def test_a_branchs_type_tag_is_its_required_type_propertys_enum_or_const(branch, tag) -> None:
    assert contract._type_tag(branch) == tag


def test_a_reference_is_inlined_and_one_with_notes_beside_it_joins_its_all_of() -> None:
    assert rewritten({"$ref": SNOWFLAKE_REF}) == snowflake()
    assert rewritten([{"$ref": SNOWFLAKE_REF}, 5]) == [snowflake(), 5]
    assert rewritten({"$ref": SNOWFLAKE_REF, "description": "d", "allOf": [{"title": "t"}]}) == {
        "description": "d",
        "allOf": [{"title": "t"}, snowflake()],
    }
    assert rewritten({"items": {"$ref": SNOWFLAKE_REF}}) == {"items": snowflake()}


def test_only_snowflakes_are_widened_to_json_numbers() -> None:
    schemas = contract.spec()["components"]["schemas"]
    assert rewritten({"$ref": "#/components/schemas/ApplicationTypes"}) == rewritten(
        schemas["ApplicationTypes"]
    )
    assert rewritten({"$ref": "#/components/schemas/ApplicationTypes"}).get("type") != ["string", "integer"]


def test_an_enum_beside_a_reference_to_its_enum_type_keeps_the_enum_alone() -> None:
    assert rewritten({"enum": [1, 2], "allOf": [{"title": "the enum type"}]}) == {"enum": [1, 2]}
    assert rewritten({"allOf": [{"title": "t"}]}) == {"allOf": [{"title": "t"}]}


def test_a_reference_outside_the_components_and_a_recursive_one_stay_references_into_the_spec() -> None:
    assert rewritten({"$ref": "#/paths/x"}) == {"$ref": contract.SPEC_URI + "#/paths/x"}
    details = rewritten({"$ref": "#/components/schemas/ErrorDetails"})  # ErrorDetails contains itself
    assert details["oneOf"][0]["additionalProperties"] == {
        "$ref": contract.SPEC_URI + "#/components/schemas/ErrorDetails"
    }
    validator = contract._Validator(details, registry=contract._registry())
    nested = {"content": {"0": {"_errors": [{"code": 50035, "message": "Invalid Form Body"}]}}}
    assert validator.is_valid(nested)
    assert not validator.is_valid({"content": {"0": {"_errors": [{"code": 50035}]}}})


def test_the_message_routes_components_are_switches_on_their_type() -> None:
    """On the spec itself: a message's top-level components and an action row's children each validate
    against the one branch of their type, with a guard naming the types Discord has."""
    schema = contract.validator_for("POST", "/channels/{channel_id}/messages").schema
    rows = schema["properties"]["components"]["items"]
    assert sorted(rows[contract.SWITCH], key=int) == ["1", "9", "10", "12", "13", "14", "17"]
    children = rows[contract.SWITCH]["1"]["properties"]["components"]["items"]
    assert sorted(children[contract.SWITCH], key=int) == ["2", "3", "5", "6", "7", "8"]
    assert children["allOf"][-1] == {
        "type": "object",
        "properties": {"type": {"enum": [2, 8, 7, 6, 3, 5]}},
        "required": ["type"],
    }
    assert "oneOf" not in str(rows) and "anyOf" not in str(rows) and "$ref" not in str(schema)


# -- a union left as the spec wrote it: the refusal names the fault of the branch the body meant ------------


def leaves_of(schema: dict[str, Any], body: Any) -> list[tuple[list[Any], str]]:
    """Each leaf error of a body under a union: (field path, keyword), as schema_problems reads them."""
    validator = contract._Validator(schema)
    return [
        (list(leaf.absolute_path), str(leaf.validator))
        for error in validator.iter_errors(body)
        for leaf in contract._leaves(error)
    ]


def branch(kind: dict[str, Any], **fields: int) -> dict[str, Any]:
    """An object branch: its ``type`` discriminator, and text fields of a maximum length."""
    properties = {"type": kind, **{name: {"maxLength": n} for name, n in fields.items()}}
    return {"type": "object", "properties": properties}


@pytest.mark.parametrize("key", ["oneOf", "anyOf"])
@pytest.mark.parametrize(
    "other",
    [
        branch({"const": 1}),  # the other branch's tag is a const ...
        branch({"enum": [1]}),  # ... or an enum ...
        branch({"type": "integer"}),  # ... or the type of its tag
        {"type": "array"},  # ... or the branch is no object at all
    ],
)
def test_a_branch_whose_discriminator_the_body_does_not_carry_is_not_the_one_it_meant(key, other) -> None:
    """The other branch fails on its discriminator alone (one error), the meant one on two fields; the
    refusal is the meant branch's two faults, not the other's one."""
    meant = branch({"const": "two"}, label=1, url=1)
    body = {"type": "two", "label": "long", "url": "long"}
    assert leaves_of({key: [other, meant]}, body) == [(["label"], "maxLength"), (["url"], "maxLength")]


def test_a_field_of_the_meant_branch_that_breaks_an_enum_is_no_discriminator() -> None:
    """Only an enum/const/type fault on the body itself or its ``type`` tells branches apart: the meant
    branch's own style enum broken is still the meant branch's fault."""
    meant = {
        **branch({"const": "two"}, label=1),
        "properties": {**branch({"const": "two"}, label=1)["properties"], "style": {"enum": [1]}},
    }
    body = {"type": "two", "label": "long", "style": 9}
    assert leaves_of({"oneOf": [branch({"const": 1}), meant]}, body) == [
        (["label"], "maxLength"),
        (["style"], "enum"),
    ]


def test_of_two_plausible_branches_the_one_with_fewer_faults_is_named() -> None:
    first = branch({"type": "string"}, label=1, url=1)
    second = branch({"type": "string"}, label=1)
    body = {"type": "any", "label": "long", "url": "long"}
    assert leaves_of({"anyOf": [first, second]}, body) == [(["label"], "maxLength")]
    assert leaves_of({"anyOf": [second, first]}, body) == [(["label"], "maxLength")]


def test_a_body_no_branch_could_have_meant_is_refused_by_the_union_itself() -> None:
    union = {"oneOf": [branch({"const": 1}, label=1), branch({"const": 2}, label=1)]}
    assert leaves_of(union, {"type": 3, "label": "long"}) == [([], "oneOf")]
    assert leaves_of(union, {"type": 3}) == [([], "oneOf")]


# -- the message rules the schema can't say, each at its limit --------------------------------------------

TOO_LONG_2000 = ("BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
EMBED_TOO_BIG = ("MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def test_an_embed_counts_title_description_footer_author_and_fields_and_nothing_else() -> None:
    embed = {
        "title": "ab",
        "description": "cde",
        "footer": {"text": "ffff"},
        "author": {"name": "ggggg", "url": "https://example.org/not-counted"},
        "fields": [{"name": "hh", "value": "iii"}, "not a field", {"name": None, "value": 7}],
        "url": "https://example.org/not-counted-either",
    }
    assert contract.embed_text_length(embed) == 2 + 3 + 4 + 5 + 2 + 3 + 1
    assert contract.embed_text_length({"title": 5, "footer": "text", "author": ["name"], "fields": None}) == 0


def test_content_and_embeds_are_refused_one_character_past_their_limit() -> None:
    assert contract.message_problems({"content": "x" * 2000}) == []
    assert contract.message_problems({"content": "x" * 2001}) == [(("content",), *TOO_LONG_2000)]
    assert contract.message_problems({"content": None, "embeds": None, "components": None}) == []
    fits = [{"title": "t" * 256, "description": "d" * 2744}, "not an embed", {"description": "d" * 3000}]
    assert contract.message_problems({"embeds": fits}) == []
    over = [*fits, {"footer": {"text": "f"}}]
    assert contract.message_problems({"embeds": over}) == [(("embeds",), *EMBED_TOO_BIG)]


def test_each_message_rule_reports_under_the_callbacks_data() -> None:
    data = {
        "content": "x" * 2001,
        "embeds": [{"description": "d" * 6001}],
        "components": [{"type": 1, "components": [{"type": 2, "style": 1}]}],
        "allowed_mentions": {"parse": ["users"], "users": ["1"]},
    }
    assert contract.message_problems(data, ("data",)) == [
        (("data", "content"), *TOO_LONG_2000),
        (("data", "embeds"), *EMBED_TOO_BIG),
        (
            ("data", "components", 0, "components", 0, "custom_id"),
            "BASE_TYPE_REQUIRED",
            "This field is required",
        ),
        (
            ("data", "allowed_mentions", "parse"),
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            'parse:["users"] and users: [ids] are mutually exclusive.',
        ),
    ]


@pytest.mark.parametrize(
    ("mentions", "kinds"),
    [
        ({"parse": ["users", "roles"], "users": ["1"], "roles": ["2"]}, ["users", "roles"]),
        ({"parse": ["roles"], "roles": ["2"], "users": ["1"]}, ["roles"]),
        ({"parse": ["users"], "users": []}, []),  # an empty list names no one: no conflict
        ({"users": ["1"], "roles": ["2"]}, []),
        ({"parse": None, "users": ["1"]}, []),
        ("not mentions", []),
    ],
)
def test_parse_conflicts_only_with_a_non_empty_list_of_its_own_kind(mentions, kinds) -> None:
    assert contract.allowed_mentions_problems(mentions, ("m",)) == [
        (
            ("m", "parse"),
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
        )
        for kind in kinds
    ]


@pytest.mark.parametrize("kind", [4, 5, 6, 7])
def test_every_callback_that_carries_a_message_is_held_to_the_message_rules(kind) -> None:
    body = {"type": kind, "data": {"content": "x" * 2001}}
    assert contract.callback_problems(body) == [(("data", "content"), *TOO_LONG_2000)]
    assert contract.cross_field_problems("POST", "/interactions/1/tok/callback", body) == [
        (("data", "content"), *TOO_LONG_2000)
    ]


def test_a_modal_has_at_most_five_rows_and_autocomplete_values_at_most_100_characters() -> None:
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": f"t{i}"}]} for i in range(6)]
    assert contract.callback_problems({"type": 9, "data": {"components": rows[:5]}}) == []
    assert contract.callback_problems({"type": 9, "data": {"components": rows}}) == [
        (("data", "components"), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    ]
    choices = [{"value": "v" * 101}, {"value": "v" * 100}, "not a choice", {"value": 10**120}]
    assert contract.callback_problems({"type": 8, "data": {"choices": choices}}) == [
        (("data", "choices", 0, "value"), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    ]


@pytest.mark.parametrize(
    "body",
    [
        {"type": 1, "data": {"content": "x" * 2001}},  # a pong carries no message
        {"type": 10, "data": {"content": "x" * 2001}},
        {"type": 4, "data": None},
        {"type": 9, "data": {"components": None}},
        {"type": 8, "data": {"choices": None}},
    ],
)
def test_a_callback_without_a_message_of_its_own_is_not_held_to_the_message_rules(body) -> None:
    assert contract.callback_problems(body) == []


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"),
    [
        ("POST", "/channels/1/messages", {"content": "x" * 2001}, [(("content",), *TOO_LONG_2000)]),
        ("PATCH", "/channels/1/messages/2", {"content": "x" * 2001}, [(("content",), *TOO_LONG_2000)]),
        ("POST", "/webhooks/1/tok", {"content": "x" * 2001}, [(("content",), *TOO_LONG_2000)]),
        (
            "PATCH",
            "/webhooks/1/tok/messages/@original",
            {"content": "x" * 2001},
            [(("content",), *TOO_LONG_2000)],
        ),
        ("PATCH", "/webhooks/1/tok/messages/3", {"content": "x" * 2001}, [(("content",), *TOO_LONG_2000)]),
        ("DELETE", "/channels/1/messages/2", {"content": "x" * 2001}, []),
        ("POST", "/channels/1/threads", {"content": "x" * 2001}, []),  # not a message route
        ("PATCH", "/interactions/1/tok/callback", {"type": 4, "data": {"content": "x" * 2001}}, []),
        ("POST", "/applications/1/commands", [{"type": 1, "name": "Bad", "description": "d"}], []),
        ("POST", "/channels/1/messages", ["not a body"], []),
    ],
)
def test_each_route_gets_its_own_rules_and_others_none(method, path, body, expected) -> None:
    assert contract.cross_field_problems(method, path, body) == expected


@pytest.mark.parametrize(
    ("method", "path", "body", "has_files", "empty"),
    [
        ("POST", "/channels/1/messages", {}, False, True),
        ("POST", "/channels/1/messages", {"content": "", "embeds": [], "tts": True}, False, True),
        ("POST", "/channels/1/messages", {}, True, False),  # a file is something to show
        ("POST", "/channels/1/messages", {"sticker_ids": ["1"]}, False, False),
        ("POST", "/channels/1/messages", {"poll": {"question": {"text": "q"}}}, False, False),
        ("POST", "/channels/1/messages", {"attachments": [{"id": 0}]}, False, False),
        ("POST", "/channels/1/messages", {"components": [{"type": 1}]}, False, False),
        ("POST", "/channels/1/messages", "not a body", False, False),
        ("PATCH", "/channels/1/messages", {}, False, False),  # only new messages
        ("PATCH", "/channels/1/messages/2", {}, False, False),
        ("POST", "/webhooks/1/tok", {}, False, True),
        ("POST", "/webhooks/1/tok", {"embeds": [{"title": "t"}]}, False, False),
        ("POST", "/channels/1/threads", {}, False, False),
        ("POST", "/interactions/1/tok/callback", {"type": 4, "data": {}}, False, True),
        ("POST", "/interactions/1/tok/callback", {"type": 4}, False, True),
        ("POST", "/interactions/1/tok/callback", {"type": 4, "data": "nothing"}, False, True),
        ("POST", "/interactions/1/tok/callback", {"type": 4, "data": {"content": "a"}}, False, False),
        ("POST", "/interactions/1/tok/callback", {"type": 5, "data": {}}, False, False),  # a deferral
        ("POST", "/interactions/1/tok/callback", {"type": 4, "data": {}}, True, False),
    ],
)
def test_a_new_message_with_nothing_to_show_is_empty_and_nothing_else_is(
    method, path, body, has_files, empty
) -> None:
    assert contract.is_empty_message(method, path, body, has_files) is empty


def test_a_fault_both_layers_find_is_reported_once_with_the_rules_words() -> None:
    """The schema allows 4,000 characters (Nitro's), the rule 2,000: past both, one refusal, the bot's."""
    problems = contract.problems_of("POST", "/channels/1/messages", {"content": "x" * 4001})
    assert problems == [(("content",), *TOO_LONG_2000)]
    assert contract.problems_of(
        "PUT", "/applications/1/commands", [{"type": 1, "name": "Bad", "description": "d"}]
    ) == [((0, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid: 'Bad'")]
    assert contract.problems_of("PATCH", "/channels/1/messages/2", {"embeds": [{"title": 5}]}) == [
        (("embeds", 0, "title"), "BASE_TYPE_BAD_TYPE", "5 is not of type 'string', 'null'")
    ]
    assert contract.problems_of("GET", "/channels/1/messages", {"content": "x" * 4001}) == []
    assert contract.problems_of("DELETE", "/channels/1/messages/2", {"content": "x" * 4001}) == []


def test_the_error_tree_nests_by_field_and_keeps_every_error_of_a_field() -> None:
    tree = contract.error_tree(
        [
            ((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."),
            (("embeds", 0, "title"), "A", "first"),
            (("embeds", 0, "title"), "B", "second"),
            (("embeds", 1), "C", "third"),
        ]
    )
    assert tree == {
        "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 100 or fewer in length."}],
        "embeds": {
            "0": {
                "title": {"_errors": [{"code": "A", "message": "first"}, {"code": "B", "message": "second"}]}
            },
            "1": {"_errors": [{"code": "C", "message": "third"}]},
        },
    }


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("a~b", False),  # ASCII punctuation above the letters is outside Discord's alphabet ...
        ("a|b", False),
        ("a[b", False),
        ("क\u0900", True),  # ... and the first mark of the Devanagari block, no letter, is inside it
        ("ก\u0e31", True),  # a Thai vowel mark
    ],
)
def test_a_command_name_takes_the_devanagari_and_thai_blocks_whole_and_no_other_symbol(name, valid) -> None:
    problems = contract.commands_problems([chat(name)])
    assert problems == (
        []
        if valid
        else [((0, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")]
    )


def test_row_rules_hold_in_every_action_row_past_other_kinds_of_rows_and_children() -> None:
    """A container or text row before an action row, or a link button (no custom_id) before two
    buttons sharing one, hides nothing: each later fault is still found."""
    select = {"type": 3, "custom_id": "s"}
    link = {"type": 2, "style": 5, "url": "https://example.org"}
    rows = [
        {"type": 17, "components": [select, {"type": 2, "style": 1, "custom_id": "c"}]},
        "not a row",
        {"type": 1, "components": [select, {"type": 2, "style": 1, "custom_id": "b"}]},
        {
            "type": 1,
            "components": [
                link,
                {"type": 2, "style": 1, "custom_id": "d"},
                {"type": 2, "style": 2, "custom_id": "d"},
            ],
        },
        {"type": 1, "components": [{**select, "custom_id": "alone"}]},
    ]
    assert contract.component_problems(rows, ("components",), 5) == [
        (
            ("components", 2, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "A select menu must be alone in its action row",
        ),
        (
            ("components", 3, "components", 2, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        ),
    ]
    assert contract.component_problems(rows, ("components",), 4) == [
        (("components",), "BASE_TYPE_MAX_LENGTH", "Must be 4 or fewer in length."),
        *contract.component_problems(rows, ("components",), 5),
    ]
    assert contract.component_problems("not rows", ("components",), 5) == []


def test_required_options_come_first_even_past_a_subcommand() -> None:
    options = [option("s", kind=1), option("a"), option("b", required=True)]
    assert contract.option_problems(chat(options=options), (0,), is_command=True) == [
        (
            (0, "options", 2, "required"),
            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
            "Required options must be placed before non-required options",
        )
    ]


def test_a_refusal_quoting_a_long_value_is_cut_to_200_characters() -> None:
    """jsonschema quotes the whole value; Discord's messages are short, so the stand-in keeps 200."""
    title = ["x"] * 100
    ((where, code, message),) = contract.problems_of(
        "POST", "/channels/1/messages", {"embeds": [{"title": title}]}
    )
    assert (where, code) == (("embeds", 0, "title"), "BASE_TYPE_BAD_TYPE")
    assert message == f"{title!r} is not of type 'string', 'null'"[:200]
    assert len(message) == 200


def test_a_text_below_its_minimum_length_is_refused_in_discords_words() -> None:
    poll = {"question": {"text": ""}, "answers": [{"poll_media": {"text": "a"}}]}
    assert contract.problems_of("POST", "/channels/1/messages", {"poll": poll}) == [
        (("poll", "question", "text"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    ]


def test_one_of_keeps_its_meaning_a_body_two_branches_take_is_refused() -> None:
    """The fast path returns early only when exactly one branch holds; two is as wrong as none."""
    validator = contract._Validator({"oneOf": [{"type": "integer"}, {"minimum": 0}]})
    assert [error.validator for error in validator.iter_errors(5)] == ["oneOf"]  # both branches hold
    assert list(validator.iter_errors(-1)) == []  # only the integer branch
    assert list(validator.iter_errors(0.5)) == []  # only the minimum branch
    assert [error.validator for error in validator.iter_errors(-0.5)] == ["oneOf"]  # neither


def test_a_component_that_is_no_object_is_refused_as_one_not_looked_up_by_type() -> None:
    """The switch reads a ``type`` only from an object: a number or the string "type" in a component list
    is a wrong type, not a crash of the stand-in."""
    assert contract.problems_of(
        "POST", "/channels/1/messages", {"content": "a", "components": [5, "type"]}
    ) == [
        (("components", 0), "BASE_TYPE_BAD_TYPE", "5 is not of type 'object'"),
        (("components", 1), "BASE_TYPE_BAD_TYPE", "'type' is not of type 'object'"),
    ]


def test_any_of_refuses_a_value_no_branch_takes_even_when_one_branch_takes_null() -> None:
    validator = contract._Validator({"anyOf": [{"type": "null"}, {"type": "integer"}]})
    assert [error.validator for error in validator.iter_errors("x")] == ["anyOf"]
    assert list(validator.iter_errors(None)) == [] and list(validator.iter_errors(3)) == []


@pytest.mark.parametrize(
    ("button", "expected"),
    [
        (
            {"style": 5, "url": "https://example.org", "custom_id": "x"},
            [
                (
                    ("b", "custom_id"),
                    "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID",
                    "A link button cannot have a custom id",
                )
            ],
        ),
        ({"style": 5}, [(("b", "url"), "BASE_TYPE_REQUIRED", "A link button needs a url")]),
        ({"style": 5, "url": "https://example.org"}, []),
        ({"style": 6, "sku_id": "1"}, []),  # a premium button has neither
        ({"style": 1}, [(("b", "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")]),
        ({"style": 4, "custom_id": "x"}, []),
    ],
)
def test_each_button_rule_in_discords_words(button, expected) -> None:
    assert contract.button_problems({"type": 2, **button}, ("b",)) == expected
