#pragma once
// Help ▸ User Guide: the project's documents for users (README.md and the user's docs/*.md), embedded as
// resources at build time from the files themselves (so the guide never drifts from them) and shown as
// Markdown: their contents on the side, links between them followed inside the window, and a search field.

#include <QString>
#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QTextBrowser;
class QUrl;

namespace hs::ui {

class UserGuide : public QWidget {
    Q_OBJECT

  public:
    explicit UserGuide(QWidget* parent = nullptr);

    // The embedded documents as resource paths, README first: ":/user-guide/README.md",
    // ":/user-guide/docs/kernel-lab.md", …
    static QStringList documents();

    // Shows one of documents() and selects it in the contents.
    void showDocument(const QString& resourcePath);
    QString currentDocument() const { return current_; }
    // Selects the next occurrence of the search field's text after the cursor, wrapping around once at the
    // end; says so beneath the document when the document lacks it.
    bool findNext();

    QTextBrowser* browser() const { return browser_; }
    QListWidget* contents() const { return contents_; }
    QLineEdit* searchField() const { return search_; }
    QLabel* status() const { return status_; }

  private:
    void followLink(const QUrl& link);

    QListWidget* contents_;
    QTextBrowser* browser_;
    QLineEdit* search_;
    QLabel* status_;
    QString current_;
};

// Raises the guide of `window`, made on first use as a window of its own.
void showUserGuide(QWidget& window);

}  // namespace hs::ui
