"""The mail of new private messages keeps what it told each person of each conversation in a
model of its own (`ConversationMail`), where talk's `Member` held it (mailed_until, mailed_at):
the rows are copied from the members that have any, before talk's migration 0003 removes the
fields (`run_before`); going back copies them to the members again. Plain ORM work, the same on
SQLite and PostgreSQL."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

BATCH = 1000


def copy_from_members(apps, schema_editor):
    Member = apps.get_model("talk", "Member")
    ConversationMail = apps.get_model("notify", "ConversationMail")
    rows = (Member.objects.exclude(mailed_until__isnull=True, mailed_at__isnull=True)
            .order_by("pk").values_list("pk", "user_id", "mailed_until", "mailed_at"))
    ConversationMail.objects.bulk_create(
        (ConversationMail(member_id=pk, user_id=user_id, mailed_until=until, mailed_at=at)
         for pk, user_id, until, at in rows.iterator(chunk_size=BATCH)), batch_size=BATCH)


def copy_to_members(apps, schema_editor):
    Member = apps.get_model("talk", "Member")
    ConversationMail = apps.get_model("notify", "ConversationMail")
    members = []
    for row in ConversationMail.objects.filter(user_id=models.F("member__user_id")) \
            .select_related("member").order_by("pk").iterator(chunk_size=BATCH):
        row.member.mailed_until, row.member.mailed_at = row.mailed_until, row.mailed_at
        members.append(row.member)
    Member.objects.bulk_update(members, ["mailed_until", "mailed_at"], batch_size=BATCH)


class Migration(migrations.Migration):

    dependencies = [
        ('notify', '0005_campaign_mails_tell_awards'),
        ('talk', '0002_rerender_text_in_angle_brackets'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]
    run_before = [
        ('talk', '0003_member_mail_moved_to_notify'),
    ]

    operations = [
        migrations.CreateModel(
            name='ConversationMail',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('mailed_until', models.DateTimeField(blank=True, null=True)),
                ('mailed_at', models.DateTimeField(blank=True, null=True)),
                ('member', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='talk.member')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['member', 'id'],
                'constraints': [models.UniqueConstraint(fields=('member', 'user'), name='conversation_mail_once')],
            },
        ),
        migrations.RunPython(copy_from_members, copy_to_members),
    ]
