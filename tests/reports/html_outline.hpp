#pragma once
// report.html read back with libxml2's HTML parser, as a browser would build its DOM: the ids of
// the page's top-level sections in document order, every element id, and the rows of the
// property table with their class and status link. Shared by the reports and campaign tests.
#include <map>
#include <string>
#include <vector>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

namespace adsem::reports::testing {

struct OutlineRow {
  std::string property;  // the first cell's text
  std::string row_class; // "failed", "error", "warning" or ""
  std::string status;    // the status cell's text
  std::string link;      // its link's href ("" without one)
};

struct HtmlOutline {
  bool parsed = false;
  std::vector<std::string> sections;                // ids of <body>'s <section>s, in order
  std::map<std::string, std::string> element_class; // id -> class of every element with one
  std::map<std::string, std::string> element_text;  // id -> its text content
  std::vector<OutlineRow> rows;                     // rows of table.properties
};

namespace outline_detail {

inline std::string attribute(xmlNode* node, const char* name) {
  xmlChar* value = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
  if (!value) return "";
  std::string text(reinterpret_cast<const char*>(value));
  xmlFree(value);
  return text;
}

inline std::string text_of(xmlNode* node) {
  xmlChar* value = xmlNodeGetContent(node);
  if (!value) return "";
  std::string text(reinterpret_cast<const char*>(value));
  xmlFree(value);
  return text;
}

inline bool is(xmlNode* node, const char* tag) {
  return node->type == XML_ELEMENT_NODE && xmlStrcmp(node->name, BAD_CAST tag) == 0;
}

inline std::vector<xmlNode*> children(xmlNode* node, const char* tag) {
  std::vector<xmlNode*> found;
  for (xmlNode* c = node->children; c; c = c->next)
    if (is(c, tag)) found.push_back(c);
  return found;
}

inline void walk(xmlNode* node, HtmlOutline& outline) {
  for (xmlNode* n = node; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    if (const std::string id = attribute(n, "id"); !id.empty()) {
      outline.element_class[id] = attribute(n, "class");
      outline.element_text[id] = text_of(n);
    }
    if (is(n, "table") && attribute(n, "class") == "properties")
      for (xmlNode* body : children(n, "tbody"))
        for (xmlNode* tr : children(body, "tr")) {
          const auto cells = children(tr, "td");
          OutlineRow row{cells.empty() ? "" : text_of(cells.front()), attribute(tr, "class"), "",
                         ""};
          for (xmlNode* td : cells)
            if (attribute(td, "class").starts_with("status")) {
              row.status = text_of(td);
              for (xmlNode* a : children(td, "a"))
                row.link = attribute(a, "href");
            }
          outline.rows.push_back(std::move(row));
        }
    walk(n->children, outline);
  }
}

} // namespace outline_detail

inline HtmlOutline outline_of(const std::string& html) {
  using namespace outline_detail;
  HtmlOutline outline;
  htmlDocPtr doc = htmlReadMemory(html.data(), static_cast<int>(html.size()), "report.html",
                                  "utf-8", HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
  if (!doc) return outline;
  outline.parsed = true;
  xmlNode* root = xmlDocGetRootElement(doc);
  for (xmlNode* body : children(root, "body"))
    for (xmlNode* s : children(body, "section"))
      outline.sections.push_back(attribute(s, "id"));
  walk(root, outline);
  xmlFreeDoc(doc);
  return outline;
}

// Where `id` stands in the section order (sections.size() when absent).
inline std::size_t position_of(const HtmlOutline& outline, const std::string& id) {
  std::size_t i = 0;
  while (i < outline.sections.size() && outline.sections[i] != id)
    ++i;
  return i;
}

} // namespace adsem::reports::testing
