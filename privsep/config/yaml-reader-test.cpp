// SPDX-License-Identifier: MIT
// Unit tests for the YAML scalar parsers and message helpers of the fips.yaml
// loader. Test-only code.
#include "privsep/config/yaml-reader.h"

#include <cmath>
#include <limits>

#include <doctest/doctest.h>

namespace fips::privsep::config {

TEST_CASE("parseUnsigned reads the YAML 1.2 integer forms") {
  CHECK(parseUnsigned("0", 255).value == 0);
  CHECK(parseUnsigned("+42", 255).value == 42);
  CHECK(parseUnsigned("0x2121", 65535).value == 0x2121);
  CHECK(parseUnsigned("0o17", 255).value == 15);
  CHECK(parseUnsigned("0b101", 255).value == 5);
  CHECK(parseUnsigned("-0", 255).status == UintStatus::OK);
  CHECK(parseUnsigned("18446744073709551615", std::numeric_limits<std::uint64_t>::max()).value ==
        std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("parseUnsigned tells garbage from out of range") {
  CHECK(parseUnsigned("", 255).status == UintStatus::NOT_A_NUMBER);
  CHECK(parseUnsigned("abc", 255).status == UintStatus::NOT_A_NUMBER);
  CHECK(parseUnsigned("1.5", 255).status == UintStatus::NOT_A_NUMBER);
  CHECK(parseUnsigned("1_000", 65535).status == UintStatus::NOT_A_NUMBER);
  CHECK(parseUnsigned("0x", 255).status == UintStatus::NOT_A_NUMBER);
  CHECK(parseUnsigned("++1", 255).status == UintStatus::NOT_A_NUMBER);
  CHECK(parseUnsigned("256", 255).status == UintStatus::OUT_OF_RANGE);
  CHECK(parseUnsigned("-1", 255).status == UintStatus::OUT_OF_RANGE);
  CHECK(parseUnsigned("99999999999999999999", std::numeric_limits<std::uint64_t>::max()).status ==
        UintStatus::OUT_OF_RANGE);
}

TEST_CASE("parseDouble reads decimals, exponents and the special values") {
  CHECK(*parseDouble("0.2") == doctest::Approx(0.2));
  CHECK(*parseDouble("10") == doctest::Approx(10.0));
  CHECK(*parseDouble("-1.5e3") == doctest::Approx(-1500.0));
  CHECK(*parseDouble("+.5") == doctest::Approx(0.5));
  CHECK(std::isinf(*parseDouble(".inf")));
  CHECK(*parseDouble("-.inf") < 0);
  CHECK(std::isnan(*parseDouble(".nan")));
  CHECK_FALSE(parseDouble("inf"));
  CHECK_FALSE(parseDouble("nan"));
  CHECK_FALSE(parseDouble("0x10"));
  CHECK_FALSE(parseDouble("1.2.3"));
  CHECK_FALSE(parseDouble("."));
  CHECK_FALSE(parseDouble(""));
}

TEST_CASE("parseBool takes only the YAML 1.2 spellings") {
  CHECK(*parseBool("true"));
  CHECK(*parseBool("TRUE"));
  CHECK_FALSE(*parseBool("False"));
  CHECK_FALSE(parseBool("yes"));
  CHECK_FALSE(parseBool("on"));
  CHECK_FALSE(parseBool("1"));
}

TEST_CASE("quoteValue escapes and shortens") {
  CHECK(quoteValue("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(quoteValue("x\ny") == "\"x\\x0ay\"");
  CHECK(quoteValue(std::string(100, 'a')) == "\"" + std::string(64, 'a') + "...\"");
}

}  // namespace fips::privsep::config
