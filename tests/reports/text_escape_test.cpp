// Escaping arbitrary bytes for UTF-8 text formats.
#include <gtest/gtest.h>

#include "reports/text_escape.hpp"

namespace adsem::reports::text_escape_test {
namespace {

TEST(TextEscape, ValidUtf8KeepsWellFormedTextAndReplacesTheRest) {
  EXPECT_EQ(valid_utf8("λx. x ∂ 𝔼"), "λx. x ∂ 𝔼");
  EXPECT_EQ(valid_utf8("a\xff"
                       "b"),
            "a\uFFFD"
            "b");
  EXPECT_EQ(valid_utf8("\xc0\xaf"), "\uFFFD\uFFFD");                     // overlong '/'
  EXPECT_EQ(valid_utf8("\xed\xa0\x80"), "\uFFFD\uFFFD\uFFFD");           // a surrogate
  EXPECT_EQ(valid_utf8("\xf4\x90\x80\x80"), "\uFFFD\uFFFD\uFFFD\uFFFD"); // above U+10FFFF
  EXPECT_EQ(valid_utf8("\xe2\x88"), "\uFFFD\uFFFD");                     // truncated sequence
}

TEST(TextEscape, XmlEscapingForTextAndAttributes) {
  EXPECT_EQ(xml_escape_text("a<b&c>d \"q\"\n"), "a&lt;b&amp;c&gt;d \"q\"\n");
  EXPECT_EQ(xml_escape_attribute("\"q\" 'p'\t\n"), "&quot;q&quot; &apos;p&apos;&#9;&#10;");
  EXPECT_EQ(xml_escape_text(std::string("\x00\x08\r", 3)), "\u2400\u2408&#13;");
  EXPECT_EQ(xml_escape_text("\xef\xbf\xbe"), "\uFFFD"); // U+FFFE is not an XML character
  EXPECT_EQ(xml_escape_text("\x7f"), "\u2421");
}

TEST(TextEscape, HtmlAndVisibleText) {
  EXPECT_EQ(html_escape("<a href='x'>\"&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(visible_text("a\tb\nc\x1b\x7f"), "a\tb\nc\u241b\u2421");
}

} // namespace
} // namespace adsem::reports::text_escape_test
