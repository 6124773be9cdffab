#pragma once
// Syntax colouring for OpenCL C: keywords, scalar and vector types, address-space and access qualifiers,
// work-item and math builtins, preprocessor lines, comments (including multi-line ones) and numbers.

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace hs::ui {

class OpenClHighlighter : public QSyntaxHighlighter {
    Q_OBJECT

  public:
    enum class Role { Keyword, Type, Qualifier, Builtin, Preprocessor, Comment, Number };

    explicit OpenClHighlighter(QTextDocument* document);

    // The format used for a role (tests read it back from the highlighted document).
    QTextCharFormat format(Role role) const;

  protected:
    void highlightBlock(const QString& text) override;

  private:
    struct Rule {
        QRegularExpression pattern;
        Role role;
    };
    std::vector<Rule> rules_;
    std::vector<QTextCharFormat> formats_;
};

}  // namespace hs::ui
