#!/usr/bin/env bash
# Counts the `///` lines of the library's sources by the access level of the declaration they document,
# and prints the share that documents internal (or more private) declarations: internal doc comments
# are for maintainers and should say what and why in a sentence or two, so a large share is a sign that
# cost rationale and restatements of the code have crept into them.
#
# Heuristic (a line scanner, not a parser):
# - A `///` block belongs to the next line that is not a `///` line, not blank, not a `//` comment and
#   not an attribute on a line of its own (`@inlinable`, `@usableFromInline`, `@available(...)`, ...);
#   that line, together with those attribute lines, is the declaration.
# - The declaration is public if its modifiers (the words before its keyword: func, var, let, init,
#   class, struct, enum, protocol, ...) include `public` or `open`; private if they include `private` or
#   `fileprivate` (not `private(set)`); otherwise internal. `@usableFromInline` declarations are
#   internal (the count of those is printed separately): their docs are read by maintainers only.
# - Members take no access from their type, with two exceptions that Swift makes: requirements of a
#   public protocol and cases of a public enum are public. So a member of a public type written without
#   `public` counts as internal. The scanner tracks braces (outside string literals and `//` comments)
#   to know which protocol or enum it is in. The sources have no `public extension`.
# - `/** */` comments are not counted.
#
# Usage: Tools/doc-comment-share.sh [--per-file] [file or folder ...]   (default: Sources/RxSwift)
#   --per-file  also lists, per file, its internal and public `///` lines (internal first, most first)
set -euo pipefail
cd "$(dirname "$0")/.."

per_file=0
if [[ "${1:-}" == "--per-file" ]]; then
    per_file=1
    shift
fi
if (($# == 0)); then set -- Sources/RxSwift; fi

find "$@" -name '*.swift' -type f | sort | xargs awk -v per_file="$per_file" '
function reset_file() { depth = 0; pending = ""; block = 0; attrs = ""; open_parens = 0 }
FNR == 1 { reset_file() }
# Strips string literals and a trailing // comment, roughly, for brace counting.
function code_of(s,    t) {
    t = s
    gsub(/\\"/, "", t)
    gsub(/"[^"]*"/, "\"\"", t)
    sub(/\/\/.*/, "", t)
    return t
}
# Whether a line holds attributes only (`@available(*, deprecated, renamed: "f(x:)")`, `@inlinable`).
function attribute_only(s,    t) {
    if (s !~ /^[ \t]*@/) return 0
    t = code_of(s)
    while (gsub(/\([^()]*\)/, "", t) > 0) {}
    sub(/\(.*/, "", t)  # an argument list that goes on on the next lines
    return t ~ /^[ \t]*(@[A-Za-z_]+[ \t]*)+$/
}
# The modifiers of a declaration: its text before the declaration keyword.
function modifiers_of(s,    m) {
    if (match(s, /(^|[^A-Za-z0-9_])(func|var|let|init|deinit|subscript|class|struct|enum|protocol|actor|typealias|associatedtype|extension|case|macro|operator)([^A-Za-z0-9_]|$)/))
        return substr(s, 1, RSTART)
    return s
}
function classify(decl,    m, lvl) {
    m = modifiers_of(decl)
    if (m ~ /(^|[^A-Za-z0-9_])(public|open)([^A-Za-z0-9_(]|\(set\)|$)/ || m ~ /(^|[^A-Za-z0-9_])(public|open)[ \t]/) return "public"
    if (m ~ /(^|[^A-Za-z0-9_])(private|fileprivate)([^A-Za-z0-9_(]|$)/) return "private"
    # Requirements of a public protocol and cases of a public enum are public.
    if (depth > 0) {
        lvl = kind[depth]
        if (lvl == "public-protocol") return "public"
        if (lvl == "public-enum" && decl ~ /^[ \t]*(indirect[ \t]+)?case[ \t]/) return "public"
    }
    return "internal"
}
{
    line = $0
    if (line ~ /^[ \t]*\/\/\//) { if (block == 0) attrs = ""; block++; next }
    if (block > 0) {
        if (open_parens > 0 || line ~ /^[ \t]*$/ || line ~ /^[ \t]*\/\// || attribute_only(line)) {
            # The arguments of an attribute may span lines (`@available(\n  *, deprecated, ...\n)`).
            attrs = attrs " " line
            t = code_of(line)
            open_parens += gsub(/\(/, "(", t) - gsub(/\)/, ")", t)
        } else {
            decl = attrs " " line
            c = classify(decl)
            if (c == "internal" && decl ~ /@usableFromInline/) ufi += block
            count[c] += block
            file_count[FILENAME, c] += block
            files[FILENAME] = 1
            block = 0
            attrs = ""
            open_parens = 0
        }
    }
    # Track the enclosing protocols and enums.
    code = code_of(line)
    if (code ~ /(^|[^A-Za-z0-9_])(protocol|enum)[ \t]+[A-Za-z_]/ && code !~ /(^|[^A-Za-z0-9_])(func|var|let|case)[ \t]/) {
        pending = (code ~ /(^|[^A-Za-z0-9_])(public|open)[ \t]/ ? "public-" : "internal-") (code ~ /protocol[ \t]/ ? "protocol" : "enum")
    }
    n = length(code)
    for (i = 1; i <= n; i++) {
        ch = substr(code, i, 1)
        if (ch == "{") { depth++; kind[depth] = (pending != "" ? pending : "other"); pending = "" }
        else if (ch == "}") { if (depth > 0) depth-- }
    }
}
END {
    pub = count["public"] + 0; itn = count["internal"] + 0; prv = count["private"] + 0
    total = pub + itn + prv
    printf "/// lines documenting public/open declarations:            %6d\n", pub
    printf "/// lines documenting internal declarations:               %6d  (of which @usableFromInline: %d)\n", itn, ufi + 0
    printf "/// lines documenting private/fileprivate declarations:    %6d\n", prv
    printf "/// lines in all:                                          %6d\n", total
    if (total > 0) printf "internal share (internal + private of all):                %5.1f %%\n", 100 * (itn + prv) / total
    if (per_file) {
        print ""
        print "internal+private  public  file"
        for (f in files) printf "%6d %6d  %s\n", file_count[f, "internal"] + file_count[f, "private"], file_count[f, "public"] + 0, f | "sort -rn"
        close("sort -rn")
    }
}
'
