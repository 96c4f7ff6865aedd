import Testing
@testable import detectord

@Suite struct TOMLSourceMapTests {
    @Test func findsKeysUnderTablesAndArraysOfTables() {
        let map = TOMLSourceMap(text: """
            top = 1
            [sensor]
              rate_hz = 200
            [sensor.i2c]
            bus = 1
            [[contacts]]
            name = "A"
            [[contacts]]
            "phone" = "+351913333333"  # quoted key
            """)
        #expect(map.entries["top"] == .init(line: 1, keyColumn: 1, valueColumn: 7))
        #expect(map.entries["sensor.rate_hz"] == .init(line: 3, keyColumn: 3, valueColumn: 13))
        #expect(map.entries["sensor.i2c"]?.line == 4)
        #expect(map.entries["sensor.i2c.bus"]?.line == 5)
        #expect(map.entries["contacts[1].name"]?.line == 7)
        #expect(map.entries["contacts[2]"]?.line == 8)
        #expect(map.entries["contacts[2].phone"]?.line == 9)
    }

    @Test func skipsMultiLineStringsAndArraysAndFollowsDottedKeys() {
        let map = TOMLSourceMap(text: """
            note = \"\"\"
            fake = 1
            \"\"\"
            list = [
              "x = 1",
              { y = 2 },
            ]
            sensor.i2c.bus = 1
            real = 2\r
            """)
        #expect(map.entries["fake"] == nil)
        #expect(map.entries["x"] == nil)
        #expect(map.entries["y"] == nil)
        #expect(map.entries["sensor.i2c.bus"]?.line == 8)
        #expect(map.entries["sensor"]?.line == 8)
        #expect(map.entries["real"]?.line == 9)
    }

    @Test func anInlineTablesKeyStandsForWhatIsInside() {
        let map = TOMLSourceMap(text: "[sensor]\ni2c = { bus = 1, adress = 0x68 }\n")
        #expect(map.entry(nearest: "sensor.i2c.adress")?.line == 2)
        #expect(map.entry(nearest: "contacts[3].phone") == nil)
    }
}
