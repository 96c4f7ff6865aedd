import Testing

@testable import detectord

/// The headers toml++ would abort on are found first; arrays and strings that look like headers
/// are left to the parser.
@Suite struct TOMLParserGuardTests {
    @Test func headersNoKeyCanStartWithAreFound() {
        #expect(TOMLParserGuard.firstAbort(in: "[!x]\nk = 1\n").map { [$0.line, $0.column] } == [1, 2])
        #expect(TOMLParserGuard.firstAbort(in: "a = 1\n\n  [[ {b]]\n").map { [$0.line, $0.column] } == [3, 6])
        #expect(TOMLParserGuard.firstAbort(in: "[\u{FFFD}in]\n").map { [$0.line, $0.column] } == [1, 2])
        #expect(TOMLParserGuard.firstAbort(in: "a = 1\n[\nfile = 2\n").map { [$0.line, $0.column] } == [2, 2], "a header cut by a line break")
        #expect(TOMLParserGuard.firstAbort(in: "[[[x]]]\n").map { [$0.line, $0.column] } == [1, 3], "a third bracket")
        #expect(TOMLParserGuard.firstAbort(in: "[ [x]]\n") == nil, "toml++ reports a spaced [[ itself")
        #expect(TOMLParserGuard.firstAbort(in: "\u{FEFF} [\n").map { [$0.line, $0.column] } == [1, 4], "after a byte order mark")
        // toml++ reports a non-ASCII blank where it skips layout itself ("expected space or tab").
        for text in ["\u{A0}[!x]\n", "[\u{3000}!]\n", "\u{200B}[!x]\n", "a = 1\n\u{FEFF}[!x]\n", "d =\u{3000}1979-05-27 7\n"] {
            #expect(TOMLParserGuard.firstAbort(in: text) == nil, "\(text.debugDescription)")
        }
    }

    @Test func aClosingBraceInAnArrayIsFound() {
        #expect(TOMLParserGuard.firstAbort(in: "a =   [}],\n").map { [$0.line, $0.column] } == [1, 8])
        #expect(TOMLParserGuard.firstAbort(in: "a = [1,\n  }]\n").map { [$0.line, $0.column] } == [2, 3])
        #expect(TOMLParserGuard.firstAbort(in: "a = { b = [1, 2] }\n") == nil)
    }

    /// Unicode's line separators outside strings: toml++ aborts on one where a value starts.
    @Test func aUnicodeLineSeparatorOutsideAStringIsFound() {
        #expect(TOMLParserGuard.firstAbort(in: "values = [\u{85}2]\n").map { [$0.line, $0.column] } == [1, 11])
        #expect(TOMLParserGuard.firstAbort(in: "a = 1\nb =\u{2028} 2\n").map { [$0.line, $0.column] } == [2, 4])
        #expect(TOMLParserGuard.firstAbort(in: "a = \"x\u{2029}y\" # \u{85}\n") == nil, "in a string or a comment it is text")
    }

    /// A date, a space and one digit where the value ends: toml++ takes it for a date-time and
    /// aborts (fuzzing found it behind a byte of 0xFF, but a plain one is enough).
    @Test func aDateTimeCutAfterTheSpaceIsFound() {
        #expect(TOMLParserGuard.firstAbort(in: "d = 1979-05-27 7\n").map { [$0.line, $0.column] } == [1, 5])
        #expect(TOMLParserGuard.firstAbort(in: "a = 1\nd = [2000-01-01 7,1]\n").map { [$0.line, $0.column] } == [2, 6])
        #expect(TOMLParserGuard.firstAbort(in: "k=4000-00-5\u{FFFD} 5\u{0C} ").map { [$0.line, $0.column] } == [1, 3])
        #expect(TOMLParserGuard.firstAbort(in: "d = 1_979-05-27 7 # c\n").map { [$0.line, $0.column] } == [1, 5], "_ is not counted")
        // toml++'s own blanks end a value too, U+200B and the BOM among them.
        #expect(TOMLParserGuard.firstAbort(in: "d = 1979-05-27 7\u{200B}\n").map { [$0.line, $0.column] } == [1, 5])
        #expect(TOMLParserGuard.firstAbort(in: "d = 1979-05-27 7\u{FEFF}").map { [$0.line, $0.column] } == [1, 5])
        for text in ["d = 1979-05-27 07:32:00\n", "d = 1979-05-27 7", "d = 1979-05-27 , 1\n", "d = 1979-05-27 77\n", "x1979-05-27 7\n"] {
            #expect(TOMLParserGuard.firstAbort(in: text) == nil, "\(text.debugDescription)")
        }
    }

    /// A date, a `T` and no time after it, in a value toml++ takes for a date-time (it has a
    /// colon): toml++ aborts reading the time. The configuration fuzz target found it.
    @Test func aDateWhoseTHasNoTimeIsFound() {
        #expect(TOMLParserGuard.firstAbort(in: "d =1979-02-27t\u{2}o: tt").map { [$0.line, $0.column] } == [1, 4])
        #expect(TOMLParserGuard.firstAbort(in: "a = 1\nd = [1, 2000-01-01Tx:1]\n").map { [$0.line, $0.column] } == [2, 9])
        #expect(TOMLParserGuard.firstAbort(in: "d = 1979-02-27T:\n")?.reason == TOMLParserGuard.badDateTimeT)
        // Where a key stands, a bare key may look like a date and a t, and its value hold a colon.
        for text in ["d = 1979-05-27T07:32:00\n", "d = 1979-05-27t07:32:00Z\n", "1979-02-27tx = 1\n", "d = 1979-02-27tx\n", "d = 1979-02-27T",
                     "1979-02-27tx=\"a:b\"\n", "t = {1979-01-01t=\"x:y\"}\n", "[t]\n  1979-01-01tz = \"1:2\"\n"] {
            #expect(TOMLParserGuard.firstAbort(in: text) == nil, "\(text.debugDescription)")
        }
    }

    /// A multi-line string may end with one or two quotes of its own before the closing three, and
    /// a backslash may end one of its lines: what follows is read where toml++ reads it.
    @Test func multiLineStringsEndWhereTOMLEndsThem() {
        #expect(TOMLParserGuard.firstAbort(in: #"a = ["""x"""", 1979-05-27 7]"# + "\n").map { [$0.line, $0.column] } == [1, 16])
        #expect(TOMLParserGuard.firstAbort(in: "a = ['''x'''', 1979-05-27 7]\n").map { [$0.line, $0.column] } == [1, 16])
        #expect(TOMLParserGuard.firstAbort(in: #"a = ["""x"""", """y"""]"# + "\nb = 1979-05-27 7\n").map { [$0.line, $0.column] } == [2, 5])
        #expect(TOMLParserGuard.firstAbort(in: #"s = """a\"# + "\n" + #"b""""# + "\nd = 1979-05-27 7\n").map { [$0.line, $0.column] } == [3, 5])
        for text in [#"a = ["""x"""", "b = 1979-05-27 7 "]"#, #"a = ["""x""""", "}"]"#, #"s = """a""b""""# + "\nt = 1"] {
            #expect(TOMLParserGuard.firstAbort(in: text + "\n") == nil, "\(text.debugDescription)")
        }
    }

    @Test func validTOMLPasses() {
        let text = """
            # [!not a header] in a comment
            title = "[!x] in a string"
            multi = \"\"\"
            [!x] inside a multi-line string
            \"\"\"
            a = [
              [+1],
              [{ b = 1 }],
            ]
            ["quoted key"]
            [[array.of.tables]]
            [ spaced ]
            """
        #expect(TOMLParserGuard.firstAbort(in: text) == nil)
    }

    /// Through the configuration reader: an issue with the line, never an abort.
    @Test func theConfigurationReaderReportsIt() {
        let error = #expect(throws: ConfigurationErrors.self) {
            try DaemonConfiguration.parse(text: "[sensor]\nsource = \"i2c\"\n[=]\n", path: "/tmp/x.toml", environment: [:])
        }
        #expect(error?.description.contains("/tmp/x.toml:3:2") == true, "\(String(describing: error))")
        #expect(error?.description.contains(TOMLParserGuard.badTableName) == true)
    }
}
