"""Typer's help pages and usage errors in the command's language: under `zh` the catalog's (taihu/messages/).

Typer 0.27 vendors click, and the words it writes itself are English: click's ("Usage:", "No such option",
"Missing argument", "Invalid value for", "Try … for help") are plain strings in its vendored copy, no longer
behind gettext; typer's few ("Options", "Arguments", "Commands", "default", "required") go through the
standard library's `gettext.gettext`, the process-wide default domain. Binding a catalog there would be too
global — every library in the process that calls `gettext.gettext` would read it — and would follow the
locale only, never `--lang`; and it would leave click's words English. So nothing is bound, and no module
constant is set. Instead the command classes here (`Spoken`, on every command of `taihu`) write the page
and the error themselves under `zh`, from the catalog and from what click knows of each parameter — its
names, metavar, default, whether it is required — through click's public `HelpFormatter.write` and typer's
public `typer.Exit`. Under `en` and `both` both are typer's own, byte for byte.

The language is the command's (docs/languages.md): `--lang` as the command line gives it — read from the
words themselves, since `--help` and a usage error come before the option is processed — else the locale's.

The texts: a command's help is `cli.help.command.<path>` (`cli.help.command.ledger.add`), a parameter's
`cli.help.param.<path>.<name>`, the nearest of its command's path that the catalog has (`cli.help.param.lang`
serves every command); a metavar's is `cli.metavar.<metavar>` (`cli.metavar.HAND`). Their English is the
help typer shows (tests/test_cli_chinese.py holds the two equal), so the catalog has both languages.

The usage errors are click's exceptions, read by their class and fields (an option's name, the parameter);
click's own sentence is read only for a value its type refused (`'abc' is not a valid int.`), whose value
and reason are in no field. Those classes are imported from typer's vendored click (`typer._click`): typer
re-exports `BadParameter` only, and pins nothing else; pyproject.toml holds typer to its tested minor (0.27)
and constraints.txt pins the release the tests run, and they walk every command and error so that a change
in a new typer shows.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import typer
from typer import _click  # the vendored click of typer >= 0.26: its exceptions' classes, read only
from typer.core import TyperCommand, TyperGroup

from taihu.cli.language import LANG_KEY, Lang, locale_lang
from taihu.messages import known, text

Context = _click.Context  # typer.Context is a subclass; click hands each method its own
# the msgids' prefixes: a command's help, a parameter's, a metavar's (built at run time from click's names)
HELP_COMMAND, HELP_PARAM, METAVAR = "cli.help.command.", "cli.help.param.", "cli.metavar."
ASKED_KEY = "taihu.lang.asked"  # the language the command line's words ask for, kept in click's shared `meta`
LANG_VALUES = {lang.value: lang for lang in Lang}
USAGE_ERROR = _click.exceptions.UsageError


def asked_lang(args: Sequence[str]) -> Lang | None:
    """The `--lang` the command line gives (`--lang zh`, `--lang=zh`), before `--`; None if none or no such one."""
    for position, word in enumerate(args):
        if word == "--":
            break
        value = args[position + 1] if word == "--lang" and position + 1 < len(args) else None
        if word.startswith("--lang="):
            value = word.removeprefix("--lang=")
        if value is not None:
            return LANG_VALUES.get(value)
    return None


def spoken(ctx: Context | None) -> Lang:
    """The language of the command `ctx` runs: its processed `--lang`, else the one its words ask for, else the
    locale's."""
    meta = ctx.meta if ctx is not None else {}
    for key in (LANG_KEY, ASKED_KEY):
        if isinstance(meta.get(key), Lang):
            return meta[key]
    return locale_lang()


def path_of(ctx: Context) -> list[str]:
    """The command's path without the program's name: `[]` for `taihu`, `["ledger", "add"]`."""
    return ctx.command_path.split()[1:]


def command_help(ctx: Context, command: Any) -> str:
    """A command's help in Chinese; its English where the catalog has none (a test keeps every one there)."""
    code = HELP_COMMAND + (".".join(path_of(ctx)) or "taihu")
    return text(code, "zh") if known(code) else command.help or ""


def param_code(path: Sequence[str], name: str) -> str | None:
    """The nearest code of a parameter's help along its command's path (`cli.help.param.ledger.add.key`, …,
    `cli.help.param.key`); None if the catalog has none."""
    for end in range(len(path), -1, -1):
        code = HELP_PARAM + ".".join((*path[:end], name))
        if known(code):
            return code
    return None


def metavar(shown: str) -> str:
    """A metavar in Chinese (`HAND` → 手牌, `[RULES]` → [规则集], `<int>` → <整数>); a choice (`<zh|en|both>`)
    or one the catalog lacks as it is."""
    opening, closing = (shown[0], shown[-1]) if shown[:1] in "[{<" and len(shown) > 1 else ("", "")
    bare = shown[len(opening) : len(shown) - len(closing)] if opening else shown
    code = METAVAR + bare
    return f"{opening}{text(code, 'zh')}{closing}" if known(code) else shown


def option_names(param: Any, ctx: Context) -> str:
    """An option's names and metavar as typer shows them (`-r, --rules RULES`), the metavar in Chinese."""
    name, _ = param.get_help_record(ctx)
    if param.param_type_name == "argument":
        return metavar(name)
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return name
    shown = param.make_metavar(ctx=ctx)
    return name.removesuffix(f" {shown}") + f" {metavar(shown)}" if name.endswith(f" {shown}") else name


def extras(param: Any, ctx: Context) -> str:
    """What typer adds to a parameter's help (`[default: 8000; required]`), in Chinese: the default as typer
    writes it, a range as click writes it (`1<=x<=64`: no word in it)."""
    _, help_text = param.get_help_record(ctx)
    found = re.search(r"\[([^\[\]]*)\]$", help_text)
    if found is None:
        return ""
    parts = []
    for part in found.group(1).split("; "):
        if part.startswith("default: "):
            parts.append(text("cli.usage.default", "zh", default=part.removeprefix("default: ")))
        elif part == "required":
            parts.append(text("cli.usage.required", "zh"))
        else:
            parts.append(part)
    return f"[{'；'.join(parts)}]"


def param_help(param: Any, ctx: Context) -> str:
    """A parameter's help in Chinese and its extras; its English where the catalog has none."""
    code = param_code(path_of(ctx), param.name or "")
    shown = text(code, "zh") if code is not None else getattr(param, "help", None) or ""
    more = extras(param, ctx)
    return f"{shown}  {more}" if shown and more else shown or more


def usage_line(command: Any, ctx: Context) -> str:
    """`用法：taihu score [选项] {手牌}`: click's usage pieces, each in Chinese."""
    pieces = [text("cli.usage.options", "zh")] if command.options_metavar else []
    for param in command.get_params(ctx):
        pieces += [metavar(piece) for piece in param.get_usage_pieces(ctx)]
    if isinstance(command, TyperGroup):
        pieces.append(text("cli.usage.command", "zh"))
    return text("cli.usage.prefix", "zh") + " ".join((ctx.command_path, *pieces))


def help_page(command: Any, ctx: Context, width: int) -> str:
    """The help page in Chinese, laid out as typer lays it out (usage, text, arguments, options, commands), by
    rich, which measures a Chinese character as the two cells it takes."""
    from rich.console import Console, Group
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    def listing(heading: str, rows: Iterable[tuple[str, str]]) -> list[Any]:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column(overflow="fold")
        for name, shown in rows:
            grid.add_row(Text(name), Text(shown))
        return [Text(""), Text(text(heading, "zh")), Padding(grid, (0, 0, 0, 2))] if grid.rows else []

    params = [p for p in command.get_params(ctx) if p.get_help_record(ctx) is not None]
    parts: list[Any] = [Text(usage_line(command, ctx))]
    if command.help:
        for paragraph in command_help(ctx, command).split("\n\n"):
            parts += [Text(""), Padding(Text(paragraph), (0, 0, 0, 2))]
    for kind, heading in (("argument", "cli.usage.heading.arguments"), ("option", "cli.usage.heading.options")):
        rows = [(option_names(p, ctx), param_help(p, ctx)) for p in params if p.param_type_name == kind]
        parts += listing(heading, rows)
    if isinstance(command, TyperGroup):
        rows = []
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                with sub.make_context(name, [], parent=ctx, resilient_parsing=True) as child:
                    rows.append((name, command_help(child, sub).split("\n\n")[0]))
        parts += listing("cli.usage.heading.commands", rows)
    out = Console(file=io.StringIO(), width=width, color_system=None, markup=False, emoji=False, highlight=False)
    with out.capture() as page:
        out.print(Group(*parts), soft_wrap=False)
    return "\n".join(line.rstrip() for line in page.get().split("\n")) + "\n"


# click's sentence for a value its type refused: its value and why (click 8's wording, in typer's copy); patterns as
# text, compiled by `re` on the first usage error (its cache), not at start-up
REFUSED_VALUES = (
    (r"(?P<value>.+) is not a valid (?:int|integer)\.", "cli.usage.not_a_number"),
    (r"(?P<value>.+) is not one of (?P<choices>.+)\.", "cli.usage.not_one_of"),
    (r"(?P<value>.+) is not in the range (?P<range>.+)\.", "cli.usage.out_of_range"),
)
PARSER_SENTENCES = (
    (r"Option (?P<option>'.+') requires .*", "cli.usage.needs_value"),
    (r"Option (?P<option>'.+') does not take a value\.", "cli.usage.takes_no_value"),
    (r"Got unexpected extra argument\(s\) \((?P<arguments>.*)\)", "cli.usage.extra_arguments"),
    (r"No such command (?P<command>'.*')\.", "cli.usage.no_such_command"),
    (r"Missing command\.", "cli.usage.missing_command"),
)


def hint_name(exc: Any) -> str:
    """The parameter an error names, as click names it (`'--port'`), an argument by its Chinese metavar."""
    param, ctx = getattr(exc, "param", None), exc.ctx
    if getattr(exc, "param_hint", None) is not None:
        hint = exc.param_hint
        return hint if isinstance(hint, str) else " / ".join(repr(x) for x in hint)
    if param is None:
        return ""
    if param.param_type_name == "argument":
        return f"'{metavar(param.human_readable_name)}'"
    return param.get_error_hint(ctx)


def usage_message(exc: Any) -> str:
    """A usage error's sentence in Chinese; click's English where it is of a kind this does not know."""
    errors = _click.exceptions
    if isinstance(exc, errors.NoSuchOption):
        said = text("cli.usage.no_such_option", "zh", option=exc.option_name)
        if exc.possibilities:
            said += text("cli.usage.possible", "zh", options="、".join(sorted(exc.possibilities)))
        return said
    if isinstance(exc, errors.MissingParameter):
        kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else "parameter")
        code = "cli.usage.missing_option" if kind == "option" else "cli.usage.missing_argument"
        return text(code, "zh", name=hint_name(exc))
    if isinstance(exc, errors.BadParameter):
        reason = str(exc.message)
        for pattern, code in REFUSED_VALUES:
            found = re.fullmatch(pattern, reason, re.S)
            if found is not None:
                fields = found.groupdict()
                if "choices" in fields:
                    fields["choices"] = "、".join(re.findall(r"'[^']*'", fields["choices"])) or fields["choices"]
                reason = text(code, "zh", **fields)
                break
        name = hint_name(exc)
        return text("cli.usage.bad_value", "zh", name=name, reason=reason) if name else reason
    for pattern, code in PARSER_SENTENCES:
        found = re.fullmatch(pattern, str(exc.message), re.S)
        if found is not None:
            return text(code, "zh", **found.groupdict())
    return str(exc.format_message())


def show_usage_error(exc: Any) -> None:
    """What click's `UsageError.show` writes, in Chinese: the usage line, where to find help, the error."""
    ctx, lines = exc.ctx, []
    if ctx is not None:
        lines.append(usage_line(ctx.command, ctx))
        if ctx.command.get_help_option(ctx) is not None:
            try_help = text("cli.usage.try", "zh", command=ctx.command_path, option=ctx.help_option_names[0])
            lines.append(try_help)
        lines.append("")
    lines.append(text("cli.error", "zh", message=usage_message(exc)))
    sys.stderr.write("\n".join(lines) + "\n")


class Spoken:
    """A command that speaks the command's language in its help page and its usage errors (the docstring above).

    Mixed into typer's command classes: `SpokenCommand`, `SpokenGroup`, and taihu's own group."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if ctx.parent is None or not isinstance(ctx.meta.get(ASKED_KEY), Lang):
            asked = asked_lang(args)  # the root sees every word; a command under it, what is left
            if asked is not None:
                ctx.meta[ASKED_KEY] = asked
        with in_its_language(ctx):
            return super().parse_args(ctx, args)  # type: ignore[misc]

    def invoke(self, ctx: Context) -> Any:
        with in_its_language(ctx):
            return super().invoke(ctx)  # type: ignore[misc]

    def format_help(self, ctx: Context, formatter: Any) -> None:
        if spoken(ctx) is not Lang.zh:
            super().format_help(ctx, formatter)  # type: ignore[misc]
            return
        formatter.write(help_page(self, ctx, formatter.width))


class in_its_language:  # noqa: N801 - a context manager, used as `with in_its_language(ctx):`
    """A usage error raised inside, in Chinese under `zh` (written, then exit 2 as click's); else as it was."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, traceback: Any) -> None:
        # a page asked for by no arguments is the help page, already in its language
        if isinstance(exc, USAGE_ERROR) and not isinstance(exc, _click.exceptions.NoArgsIsHelpError):
            if spoken(exc.ctx or self.ctx) is Lang.zh:
                show_usage_error(exc)
                raise typer.Exit(exc.exit_code) from None


class SpokenCommand(Spoken, TyperCommand):
    """A command of `taihu` (`@app.command(cls=SpokenCommand)`)."""


class SpokenGroup(Spoken, TyperGroup):
    """A group of commands of `taihu` (`taihu ledger`)."""
