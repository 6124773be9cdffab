#include "ui/shell/user_guide.hpp"

#include <QBoxLayout>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScreen>
#include <QShortcut>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>

namespace hs::ui {

namespace {

const QString kRoot = QStringLiteral(":/user-guide");

// The text of a document's first heading as Markdown renders it, or its file name when it has none.
QString titleOf(const QString& resourcePath) {
    QFile file(resourcePath);
    QTextDocument document;
    if (file.open(QIODevice::ReadOnly)) document.setMarkdown(QString::fromUtf8(file.readAll()));
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        if (block.blockFormat().headingLevel() > 0) return block.text();
    return QFileInfo(resourcePath).fileName();
}

QUrl urlOf(const QString& resourcePath) {
    return QUrl(QStringLiteral("qrc") + resourcePath);
}

}  // namespace

QStringList UserGuide::documents() {
    QStringList paths{kRoot + QStringLiteral("/README.md")};
    const QDir docs(kRoot + QStringLiteral("/docs"));
    for (const QString& name : docs.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name))
        paths << docs.filePath(name);
    return paths;
}

UserGuide::UserGuide(QWidget* parent)
    : QWidget(parent, Qt::Window),
      contents_(new QListWidget),
      browser_(new QTextBrowser),
      search_(new QLineEdit),
      status_(new QLabel) {
    setWindowTitle(tr("HistoScope User Guide"));

    contents_->setObjectName(QStringLiteral("guideContents"));
    for (const QString& path : documents()) {
        auto* item = new QListWidgetItem(titleOf(path), contents_);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path.mid(kRoot.size() + 1));
    }
    contents_->setWordWrap(true);
    connect(contents_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0) showDocument(contents_->item(row)->data(Qt::UserRole).toString());
    });

    browser_->setObjectName(QStringLiteral("guideBrowser"));
    // Links are followed here: another document of the guide opens in this window, a web address in the
    // browser, anything else (a source file of the repository) is not embedded and is said so.
    browser_->setOpenLinks(false);
    connect(browser_, &QTextBrowser::anchorClicked, this, &UserGuide::followLink);

    search_->setObjectName(QStringLiteral("guideSearch"));
    search_->setPlaceholderText(tr("Find in this document"));
    search_->setClearButtonEnabled(true);
    auto* findNextButton = new QPushButton(tr("Find &Next"));
    connect(search_, &QLineEdit::returnPressed, this, &UserGuide::findNext);
    connect(findNextButton, &QPushButton::clicked, this, &UserGuide::findNext);
    auto* findShortcut = new QShortcut(QKeySequence::Find, this);
    connect(findShortcut, &QShortcut::activated, this, [this] {
        search_->setFocus();
        search_->selectAll();
    });
    auto* findNextShortcut = new QShortcut(QKeySequence::FindNext, this);
    connect(findNextShortcut, &QShortcut::activated, this, &UserGuide::findNext);

    status_->setObjectName(QStringLiteral("guideStatus"));

    auto* searchRow = new QHBoxLayout;
    searchRow->addWidget(search_, 1);
    searchRow->addWidget(findNextButton);
    auto* page = new QWidget;
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addLayout(searchRow);
    pageLayout->addWidget(browser_, 1);
    pageLayout->addWidget(status_);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(contents_);
    splitter->addWidget(page);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 780});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    // A reading size, never more than the screen it opens on.
    QSize size(1000, 720);
    if (const QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableSize() * 0.9);
    resize(size);

    contents_->setCurrentRow(0);
}

void UserGuide::showDocument(const QString& resourcePath) {
    const int row = static_cast<int>(documents().indexOf(resourcePath));
    if (row < 0) return;
    if (resourcePath != current_) {
        current_ = resourcePath;
        browser_->setSource(urlOf(resourcePath), QTextDocument::MarkdownResource);
        status_->clear();
    }
    contents_->setCurrentRow(row);
}

bool UserGuide::findNext() {
    const QString text = search_->text();
    if (text.isEmpty()) return false;
    bool found = browser_->find(text);
    if (!found) {
        // From the top again, once.
        QTextCursor cursor = browser_->textCursor();
        cursor.movePosition(QTextCursor::Start);
        browser_->setTextCursor(cursor);
        found = browser_->find(text);
    }
    status_->setText(found ? QString() : tr("“%1” is not in this document").arg(text));
    return found;
}

void UserGuide::followLink(const QUrl& link) {
    if (link.scheme() == QLatin1String("http") || link.scheme() == QLatin1String("https") ||
        link.scheme() == QLatin1String("mailto")) {
        QDesktopServices::openUrl(link);
        return;
    }
    const QUrl target = browser_->source().resolved(link);
    const QString path = QStringLiteral(":") + target.path();
    if (!documents().contains(path)) {
        status_->setText(tr("%1 is not part of the guide: it is in the source tree").arg(link.toString()));
        return;
    }
    showDocument(path);
    if (target.hasFragment()) browser_->scrollToAnchor(target.fragment());
}

void showUserGuide(QWidget& window) {
    auto* guide = window.findChild<UserGuide*>();
    if (!guide) guide = new UserGuide(&window);
    guide->show();
    guide->raise();
    guide->activateWindow();
}

}  // namespace hs::ui
